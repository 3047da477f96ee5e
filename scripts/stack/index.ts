/**
 * Development/CI stack: Postgres, Redis and OpenSearch, found or started, then checked healthy.
 *
 *   import { ensureStack } from '../scripts/stack/index.ts';
 *   const { databaseUrl, redisUrl, opensearchUrl } = await ensureStack();
 *
 * Idempotent: a second call finds everything up and returns quickly. The URLs are also written
 * to .data/stack.env. See cli.ts for the command line (npm run stack:up|down|status).
 */
import path from 'node:path';
import { readStackEnv, stackEnvPath, type StackUrls, writeStackEnv } from './env-file.ts';
import {
  ensureOpenSearch,
  opensearchStatus,
  startNode as osStartNode,
  stopNode as osStopNode,
  stopOpenSearch,
} from './opensearch.ts';
import { ensurePostgres, postgresStatus, stopPostgres } from './postgres.ts';
import { ensureRedis, redisStatus, stopRedis } from './redis.ts';
import { type Ctx, errorText, line, type Log, repoRoot, since, withLock } from './util.ts';

export type { StackUrls } from './env-file.ts';
export { runningCluster } from './opensearch.ts';
export { readStackEnv, stackEnvPath } from './env-file.ts';

export interface StackOptions {
  /** OpenSearch node count (default: OPENSEARCH_NODES, else what runs already, else 1) */
  nodes?: number;
  /** progress lines go here (default: console.log) */
  log?: Log;
  /** no progress lines */
  quiet?: boolean;
  /** environment to read DATABASE_URL etc. from (default: process.env) */
  env?: NodeJS.ProcessEnv;
  /** also set DATABASE_URL, REDIS_URL, OPENSEARCH_URL in process.env where unset */
  setEnv?: boolean;
}

function ctxOf(opts: StackOptions): Ctx {
  const log: Log = opts.quiet ? () => undefined : (opts.log ?? ((l) => console.log(l)));
  return { log, env: opts.env ?? process.env };
}

/** Runs the three in parallel; waits for all of them before reporting the first failure. */
async function all<T extends unknown[]>(tasks: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const settled = await Promise.allSettled(tasks);
  const failed = settled.filter((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed.length > 0) {
    const message = failed.map((f) => errorText(f.reason)).join('\n');
    throw new Error(message);
  }
  return settled.map((s) => (s as PromiseFulfilledResult<unknown>).value) as T;
}

/** Makes Postgres, Redis and OpenSearch available and healthy; writes .data/stack.env. */
export async function ensureStack(opts: StackOptions = {}): Promise<StackUrls> {
  const ctx = ctxOf(opts);
  const t0 = Date.now();
  const urls = await withLock(
    'stack',
    async () => {
      const [databaseUrl, redisUrl, os] = await all<[string, string, { url: string; urls: string[] }]>([
        ensurePostgres(ctx),
        ensureRedis(ctx),
        ensureOpenSearch(ctx, opts.nodes === undefined ? {} : { nodes: opts.nodes }),
      ]);
      const result: StackUrls = { databaseUrl, redisUrl, opensearchUrl: os.url, opensearchUrls: os.urls };
      writeStackEnv(result);
      return result;
    },
    ctx.log,
  );
  if (opts.setEnv) {
    process.env.DATABASE_URL ??= urls.databaseUrl;
    process.env.REDIS_URL ??= urls.redisUrl;
    process.env.OPENSEARCH_URL ??= urls.opensearchUrl;
  }
  ctx.log(line('stack', `ready in ${since(t0)}; URLs in ${path.relative(repoRoot, stackEnvPath)}`));
  return urls;
}

/** Stops what this script started (pid files); machine services are left alone. */
export async function stopStack(opts: StackOptions = {}): Promise<void> {
  const ctx = ctxOf(opts);
  await withLock(
    'stack',
    async () => {
      await all<[void, void, void]>([stopOpenSearch(ctx), stopRedis(ctx), stopPostgres(ctx)]);
    },
    ctx.log,
  );
}

/** One line per component: the URL in use and whether it answers. */
export async function stackStatus(opts: StackOptions = {}): Promise<string[]> {
  const ctx = ctxOf(opts);
  const current = readStackEnv();
  return Promise.all([
    postgresStatus(ctx, current.DATABASE_URL),
    redisStatus(ctx, current.REDIS_URL),
    opensearchStatus(ctx, current.OPENSEARCH_URL),
  ]);
}

/** Stops OpenSearch node `n` (1-based) of a multi-node cluster started by this script. */
export async function stopNode(n: number, opts: StackOptions = {}): Promise<void> {
  const ctx = ctxOf(opts);
  await withLock('stack', () => osStopNode(ctx, n), ctx.log);
}

/** Starts OpenSearch node `n` again after stopNode. */
export async function startNode(n: number, opts: StackOptions = {}): Promise<void> {
  const ctx = ctxOf(opts);
  await withLock('stack', () => osStartNode(ctx, n), ctx.log);
}
