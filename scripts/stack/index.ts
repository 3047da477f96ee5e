/**
 * Development/CI stack: Postgres, Redis and the search engine (OpenSearch, or Elasticsearch with
 * SEARCH_ENGINE=elasticsearch), found or started, then checked healthy.
 *
 *   import { ensureStack } from '../scripts/stack/index.ts';
 *   const { databaseUrl, redisUrl, searchEngine, searchUrl } = await ensureStack();
 *
 * Idempotent: a second call finds everything up and returns quickly. The URLs are also written
 * to .data/stack.env, unless the environment chose the services for this one run (`record`).
 * See cli.ts for the command line (npm run stack:up|down|status).
 */
import path from 'node:path';
import { elasticsearchRunning, elasticsearchStatus, ensureElasticsearch, stopElasticsearch } from './elasticsearch.ts';
import { readStackEnv, type SearchEngineName, stackEnvPath, type StackUrls, writeStackEnv } from './env-file.ts';
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

export type { SearchEngineName, StackUrls } from './env-file.ts';
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
  /** also set DATABASE_URL, REDIS_URL, SEARCH_ENGINE, SEARCH_URL (and OPENSEARCH_URL) in process.env where unset */
  setEnv?: boolean;
  /**
   * Write .data/stack.env even when the environment chose the services (`npm run stack:up` does:
   * there the environment is how an operator points the project at services of their own).
   */
  record?: boolean;
  /** the stack file to write (default .data/stack.env) */
  file?: string;
}

/** Variables that say which services to use; the stack file holds the same ones. */
export const SERVICE_VARIABLES = [
  'DATABASE_URL',
  'REDIS_URL',
  'SEARCH_ENGINE',
  'SEARCH_URL',
  'SEARCH_URLS',
  'OPENSEARCH_URL',
];

/** SEARCH_ENGINE: `opensearch` (default) or `elasticsearch`. */
export function searchEngineOf(env: NodeJS.ProcessEnv = process.env): SearchEngineName {
  const raw = (env.SEARCH_ENGINE ?? '').trim().toLowerCase();
  if (raw === '' || raw === 'opensearch') return 'opensearch';
  if (raw === 'elasticsearch') return 'elasticsearch';
  throw new Error(`SEARCH_ENGINE must be opensearch or elasticsearch, not ${env.SEARCH_ENGINE}`);
}

/** OpenSearch reads OPENSEARCH_URL; SEARCH_URL stands for it when only that is set. */
function openSearchEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return env.OPENSEARCH_URL || !env.SEARCH_URL ? env : { ...env, OPENSEARCH_URL: env.SEARCH_URL };
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

/**
 * Makes Postgres, Redis and the search engine available and healthy; writes .data/stack.env.
 * SEARCH_ENGINE=elasticsearch: Elasticsearch 9 (SEARCH_URL, or the embedded node on ES_HTTP_PORT)
 * instead of OpenSearch; OpenSearch is then neither looked for nor touched.
 */
export async function ensureStack(opts: StackOptions = {}): Promise<StackUrls> {
  const ctx = ctxOf(opts);
  const t0 = Date.now();
  const engine = searchEngineOf(ctx.env);
  if (engine === 'elasticsearch' && opts.nodes !== undefined && opts.nodes !== 1) {
    throw new Error('the embedded Elasticsearch runs one node only (--nodes is for OpenSearch)');
  }
  let recorded = false;
  const urls = await withLock(
    'stack',
    async () => {
      const search =
        engine === 'elasticsearch'
          ? ensureElasticsearch(ctx)
          : ensureOpenSearch(
              { ...ctx, env: openSearchEnv(ctx.env) },
              opts.nodes === undefined ? {} : { nodes: opts.nodes },
            );
      const [databaseUrl, redisUrl, found] = await all<[string, string, { url: string; urls: string[] }]>([
        ensurePostgres(ctx),
        ensureRedis(ctx),
        search,
      ]);
      const result: StackUrls = {
        databaseUrl,
        redisUrl,
        searchEngine: engine,
        searchUrl: found.url,
        searchUrls: found.urls,
        ...(engine === 'opensearch' ? { opensearchUrl: found.url, opensearchUrls: found.urls } : {}),
      };
      // A test or dev run told by its environment where the services are (say, Elasticsearch for
      // one suite) uses them for that run only: the next command without that environment must
      // still find what `stack up` recorded, not the one-off choice.
      const chosen = SERVICE_VARIABLES.filter((k) => ctx.env[k]);
      recorded = opts.record === true || chosen.length === 0;
      if (recorded) writeStackEnv(result, opts.file);
      else
        ctx.log(
          line(
            'stack',
            `${path.relative(repoRoot, opts.file ?? stackEnvPath)} left as it is (${chosen.join(', ')} from the environment)`,
          ),
        );
      return result;
    },
    ctx.log,
  );
  // Unrecorded, the URLs the environment left out reach this process's children only this way.
  if (opts.setEnv || !recorded) {
    process.env.DATABASE_URL ??= urls.databaseUrl;
    process.env.REDIS_URL ??= urls.redisUrl;
    process.env.SEARCH_ENGINE ??= urls.searchEngine;
    process.env.SEARCH_URL ??= urls.searchUrl;
    if (urls.opensearchUrl) process.env.OPENSEARCH_URL ??= urls.opensearchUrl;
  }
  ctx.log(line('stack', `ready in ${since(t0)}; URLs in ${path.relative(repoRoot, stackEnvPath)}`));
  return urls;
}

/**
 * Stops what this script started (pid and state files), both engines whatever SEARCH_ENGINE says;
 * machine services and engines it did not start are left alone.
 */
export async function stopStack(opts: StackOptions = {}): Promise<void> {
  const ctx = ctxOf(opts);
  await withLock(
    'stack',
    async () => {
      const es =
        searchEngineOf(ctx.env) === 'elasticsearch' || elasticsearchRunning() ? stopElasticsearch(ctx) : undefined;
      await all<[void, void, void, void]>([
        stopOpenSearch(ctx),
        es ?? Promise.resolve(),
        stopRedis(ctx),
        stopPostgres(ctx),
      ]);
    },
    ctx.log,
  );
}

/**
 * One line per component: the URL in use and whether it answers. The engine is the one of
 * SEARCH_ENGINE (else the one of .data/stack.env); an Elasticsearch the script started is shown too.
 */
export async function stackStatus(opts: StackOptions = {}): Promise<string[]> {
  const ctx = ctxOf(opts);
  const current = readStackEnv();
  const engine = searchEngineOf(ctx.env.SEARCH_ENGINE ? ctx.env : { SEARCH_ENGINE: current.SEARCH_ENGINE });
  const search =
    engine === 'elasticsearch'
      ? [elasticsearchStatus(ctx, current.SEARCH_ENGINE === 'elasticsearch' ? current.SEARCH_URL : undefined)]
      : [
          opensearchStatus({ ...ctx, env: openSearchEnv(ctx.env) }, current.OPENSEARCH_URL ?? current.SEARCH_URL),
          ...(elasticsearchRunning() ? [elasticsearchStatus(ctx, undefined)] : []),
        ];
  return Promise.all([postgresStatus(ctx, current.DATABASE_URL), redisStatus(ctx, current.REDIS_URL), ...search]);
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

/** An OpenSearch cluster of a test's own, apart from the stack's (see privateOpenSearch). */
export interface PrivateOpenSearch {
  /** Node 1's URL. */
  url: string;
  /** Every node's URL, node 1 first. */
  urls: string[];
  /** Its cluster name, `guest-private-<port>`: no other cluster on the machine has it. */
  clusterName: string;
  /** Stops node `n` (1-based, default 1); the JVM stays, so it comes back in seconds. */
  stopNode(n?: number): Promise<void>;
  startNode(n?: number): Promise<void>;
  /** Ends the JVM. */
  stop(): Promise<void>;
}

/**
 * Starts an OpenSearch cluster of `nodes` nodes (default 1, all in one JVM) kept in `home` (state,
 * log, data), HTTP on `port` to `port + nodes - 1`, transport on the next `nodes` ports, for a
 * test that stops, restarts or reshapes its engine: the stack's cluster, which every other suite
 * and developer uses, is never touched. It is always a new one: OPENSEARCH_URL is ignored, and
 * anything already answering on those ports is refused rather than used. The JVM ends with
 * this process, should that die before `stop()`.
 */
export async function privateOpenSearch(
  home: string,
  port: number,
  opts: { nodes?: number; heap?: string; log?: Log; quiet?: boolean } = {},
): Promise<PrivateOpenSearch> {
  const nodes = opts.nodes ?? 1;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    OPENSEARCH_URL: '',
    OPENSEARCH_HOME: home,
    OPENSEARCH_PORT: String(port),
    OPENSEARCH_TRANSPORT_PORT: String(port + nodes),
    OPENSEARCH_NODES: String(nodes),
    // the nodes share the JVM's heap: 512 MiB holds one with a test's small indices
    OPENSEARCH_HEAP: opts.heap ?? (nodes > 1 ? '768m' : '512m'),
  };
  const ctx = ctxOf({ ...opts, env });
  const clusterName = `guest-private-${port}`;
  const { url, urls } = await ensureOpenSearch(ctx, { nodes, own: { clusterName, exitWith: process.pid } });
  return {
    url,
    urls,
    clusterName,
    stopNode: (n = 1) => osStopNode(ctx, n),
    startNode: (n = 1) => osStartNode(ctx, n),
    stop: () => stopOpenSearch(ctx),
  };
}
