import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { repoRoot } from '@guest/config';

/**
 * Builds the web client (apps/web, Vite) into apps/web/dist, which the one-base-URL server serves
 * at `/`. `tsx scripts/web-build.ts` always builds; `--if-stale` only when a source (the page, the
 * SDK it is built on, its config) is newer than the last build, as `npm run dev`, `npm start` and
 * the browser tests do.
 */
const WEB = path.join(repoRoot, 'apps', 'web');
const BUILT = path.join(WEB, 'dist', 'index.html');
const SOURCES = [
  path.join(WEB, 'src'),
  path.join(WEB, 'index.html'),
  path.join(WEB, 'vite.config.ts'),
  path.join(WEB, 'budget.ts'),
  path.join(WEB, 'precompress.ts'),
  path.join(WEB, 'package.json'),
  path.join(repoRoot, 'clients', 'ts', 'src'),
  path.join(repoRoot, 'package-lock.json'),
];

function newest(p: string): number {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  return readdirSync(p).reduce((m, name) => Math.max(m, newest(path.join(p, name))), s.mtimeMs);
}

export function webBuildStale(): boolean {
  if (!existsSync(BUILT)) return true;
  const built = statSync(BUILT).mtimeMs;
  return SOURCES.some((s) => newest(s) > built);
}

/** Runs `vite build` for apps/web; throws when it fails (over the JS budget included). */
export function buildWeb(opts: { ifStale?: boolean; quiet?: boolean } = {}): { built: boolean; ms: number } {
  if (opts.ifStale && !webBuildStale()) return { built: false, ms: 0 };
  const started = Date.now();
  let vite: string;
  try {
    vite = path.join(
      path.dirname(createRequire(path.join(WEB, 'package.json')).resolve('vite/package.json')),
      'bin',
      'vite.js',
    );
  } catch {
    // Production installs (`npm ci --omit=dev`) have no Vite: the page is built where dev
    // dependencies are (the Dockerfile's first stage, CI, a developer's clone).
    throw new Error(
      'the web client needs building and Vite (a dev dependency) is not installed: run `npm run build` where it is',
    );
  }
  const res = spawnSync(process.execPath, [vite, 'build', '--logLevel', opts.quiet ? 'warn' : 'info'], {
    cwd: WEB,
    stdio: opts.quiet ? ['ignore', 'pipe', 'inherit'] : 'inherit',
    encoding: 'utf8',
  });
  if (opts.quiet && res.stdout) {
    const budget = res.stdout.split('\n').find((l) => l.startsWith('[budget]'));
    if (budget) process.stdout.write(`${budget}\n`);
  }
  if (res.status !== 0) throw new Error(`the web client build failed (vite exit ${res.status})`);
  return { built: true, ms: Date.now() - started };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { built, ms } = buildWeb({ ifStale: process.argv.includes('--if-stale') });
  process.stdout.write(built ? `[web] built apps/web/dist in ${ms} ms\n` : '[web] apps/web/dist is current\n');
}
