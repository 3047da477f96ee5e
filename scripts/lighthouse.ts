import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { repoRoot } from '@guest/config';

/**
 * `npm run lighthouse -- [url] [--runs N] [--desktop]`: Lighthouse (npm) on Debian's Chromium,
 * headless, the mobile profile by default (Moto G Power viewport, simulated slow 4G and a 4×
 * slower CPU; `--desktop`: Lighthouse's own desktop profile), and prints the performance and accessibility scores with the metrics behind them,
 * the median of N runs (the machine is shared: one run can be off by 10 points). The JSON reports
 * are kept in test-results/lighthouse/. The page must be served: `npm run dev` (default URL
 * http://127.0.0.1:8080/).
 */
const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { runs: { type: 'string', default: '3' }, desktop: { type: 'boolean', default: false } },
});
const url = positionals[0] ?? `http://127.0.0.1:${process.env.PORT ?? 8080}/`;
const runs = Math.max(1, Number(values.runs) || 1);
const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
if (!existsSync(CHROMIUM)) {
  process.stderr.write(`${CHROMIUM} is missing: apt-get install -y chromium (or set CHROME_PATH)\n`);
  process.exit(1);
}

const METRICS = {
  'first-contentful-paint': 'FCP',
  'largest-contentful-paint': 'LCP',
  'total-blocking-time': 'TBT',
  'cumulative-layout-shift': 'CLS',
  'speed-index': 'SI',
} as const;

interface Run {
  performance: number;
  accessibility: number;
  metrics: Record<string, string>;
  numbers: Record<string, number>;
  failed: string[];
}

const outDir = path.join(repoRoot, 'test-results', 'lighthouse');
await mkdir(outDir, { recursive: true });
const results: Run[] = [];
for (let i = 0; i < runs; i++) {
  // A fresh browser each run: nothing cached, as a first visit.
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      // MapLibre needs WebGL: without a GPU, Chromium's software renderer draws it.
      '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader',
    ],
  });
  try {
    const result = await lighthouse(
      url,
      { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance', 'accessibility'] },
      values.desktop ? desktopConfig : undefined,
    );
    if (!result) throw new Error('Lighthouse gave no result');
    const { lhr } = result;
    await writeFile(
      path.join(outDir, `${values.desktop ? 'desktop' : 'mobile'}-${i + 1}.json`),
      result.report as string,
    );
    const metrics: Record<string, string> = {};
    const numbers: Record<string, number> = {};
    for (const [id, short] of Object.entries(METRICS)) {
      metrics[short] = lhr.audits[id]?.displayValue ?? '?';
      numbers[short] = lhr.audits[id]?.numericValue ?? NaN;
    }
    const failed = (lhr.categories.accessibility?.auditRefs ?? [])
      .filter((a) => a.weight > 0 && lhr.audits[a.id]?.score === 0)
      .map((a) => a.id);
    results.push({
      performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
      metrics,
      numbers,
      failed,
    });
    const r = results.at(-1)!;
    process.stdout.write(
      `run ${i + 1}/${runs}: performance ${r.performance}, accessibility ${r.accessibility}  ` +
        `${Object.entries(metrics)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}${failed.length ? `  (accessibility audits failed: ${failed.join(', ')})` : ''}\n`,
    );
  } finally {
    chrome.kill();
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
process.stdout.write(
  `Lighthouse ${values.desktop ? 'desktop' : 'mobile'} on ${url}, median of ${runs}: ` +
    `performance ${median(results.map((r) => r.performance))}, accessibility ${median(results.map((r) => r.accessibility))}` +
    ` (LCP ${Math.round(median(results.map((r) => r.numbers.LCP!)))} ms, TBT ${Math.round(median(results.map((r) => r.numbers.TBT!)))} ms;` +
    ` reports in ${path.relative(repoRoot, outDir)}/)\n`,
);
