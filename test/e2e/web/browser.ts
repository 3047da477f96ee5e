import { copyFile, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { repoRoot } from '@guest/config';
import { eventually } from '../../support/eventually.ts';

/** Debian's Chromium (`apt-get install chromium`; `.ci/run` installs it when missing). */
export const CHROMIUM = '/usr/bin/chromium';

/** Where the browser tests leave their screenshots (gitignored; CI prints the path). */
export const SHOTS = path.join(repoRoot, 'test-results', 'browser');

/**
 * Headless Chromium with a fresh profile (Playwright gives every launch a new temporary
 * user-data-dir and removes it on close); each test then opens its own context (own storage).
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // MapLibre needs WebGL: without a GPU, Chromium's software renderer (SwiftShader) draws it.
      '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader',
    ],
  });
}

/**
 * Saves a screenshot of the page under test-results/browser/NAME.png. The README's pictures
 * (`readme: true`) are also written to WEB_SCREENSHOTS_DIR when it is set:
 * `WEB_SCREENSHOTS_DIR=docs/screenshots npm run test:e2e -- test/e2e/web-client.test.ts`.
 */
export async function screenshot(
  page: Page,
  name: string,
  opts: { readme?: boolean; fullPage?: boolean; scale?: 'css' | 'device' } = {},
): Promise<string> {
  await mkdir(SHOTS, { recursive: true });
  const file = path.join(SHOTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage: opts.fullPage ?? false, scale: opts.scale ?? 'device' });
  const extra = process.env.WEB_SCREENSHOTS_DIR;
  if (extra && opts.readme) {
    const dir = path.resolve(repoRoot, extra);
    await mkdir(dir, { recursive: true });
    await copyFile(file, path.join(dir, `${name}.png`));
  }
  return file;
}

/**
 * Follows the page's API requests, to wait until it has settled (none in flight for `quietMs`)
 * and to read what it asked last.
 */
export function watchApi(page: Page) {
  const inFlight = new Set<string>();
  const answered: Array<{ url: URL; status: number }> = [];
  let lastChange = Date.now();
  page.on('request', (r) => {
    if (!r.url().includes('/v1/')) return;
    inFlight.add(r.url() + '#' + String(Math.random()));
    lastChange = Date.now();
  });
  const done = (url: string) => {
    for (const k of inFlight) {
      if (k.startsWith(url + '#')) {
        inFlight.delete(k);
        break;
      }
    }
    lastChange = Date.now();
  };
  page.on('requestfinished', (r) => {
    if (!r.url().includes('/v1/')) return;
    done(r.url());
    r.response()
      .then((res) => answered.push({ url: new URL(r.url()), status: res?.status() ?? 0 }))
      .catch(() => undefined); // the page closed first
  });
  page.on('requestfailed', (r) => r.url().includes('/v1/') && done(r.url()));
  return {
    answered,
    async settled(quietMs = 600, timeoutMs = 20_000): Promise<void> {
      await eventually(
        `the page to stop asking the API (none in flight for ${quietMs} ms)`,
        () => ({ inFlight: [...inFlight], quietMs: Date.now() - lastChange }),
        { timeoutMs, until: (s) => s.inFlight.length === 0 && s.quietMs >= quietMs },
      );
    },
    /** The last answered request to this path (e.g. `/v1/search/listings`), without a cursor unless asked. */
    last(pathname: string, opts: { withCursor?: boolean } = {}): URL {
      const hit = [...answered]
        .reverse()
        .find(
          (a) =>
            a.url.pathname === pathname && a.status === 200 && (opts.withCursor || !a.url.searchParams.has('cursor')),
        );
      if (!hit) throw new Error(`the page never asked ${pathname}`);
      return hit.url;
    },
  };
}
