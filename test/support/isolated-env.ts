import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Redis } from 'ioredis';
import { inject, type RunnerTask } from 'vitest';
import { loadConfig, type Config } from '@guest/config';
import { eventually } from './eventually.ts';

export type ConfigOverrides = Partial<Record<keyof Config, string | number | boolean>>;

/**
 * What isolates one test's app, worker or CLI from every other test file running at the same
 * time: its own database (a clone of the run's migrated template), its own Redis key prefix, its
 * own index prefix, its own file and mail directories. `startTestApp` and `startTestRuntime`
 * (test-app.ts) run in one; a test that spawns a process passes it `config`.
 */
export interface IsolatedEnv {
  /** The config a process of this test runs with: the environment's, isolated, then the test's overrides. */
  config: Config;
  databaseName: string;
  /** Raw SQL on this environment's own database. */
  sql: pg.Pool;
  /**
   * Removes its Redis keys, indices and directories and ends `sql`. Its database stays until
   * the test file ends: dropped when the file passed, kept (and its name printed) when it failed.
   */
  close(): Promise<void>;
}

interface Opened {
  env: IsolatedEnv;
  id: string;
}

/** Environments of this test file (vitest runs each file in its own module graph). */
const opened: Opened[] = [];

const baseConfig = () => loadConfig({ ...process.env, APP_ENV: 'test' });

export async function createIsolatedEnv(opts: { config?: ConfigOverrides } = {}): Promise<IsolatedEnv> {
  const base = baseConfig();
  // The run's id (main process and tier) names everything, so the global teardown finds what a
  // crashed file left behind; the random part keeps two environments of one file apart.
  const id = `${inject('testRunId')}_${randomBytes(4).toString('hex')}`;
  const databaseName = `guest_test_${id}`;
  const databaseUrl = await cloneTemplate(base.DATABASE_URL, databaseName);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'guest-test-'));
  const redisKeyPrefix = `test:${id}:`;
  const indexPrefix = `t${id.replace(/_/g, '-')}`.toLowerCase();
  const config = loadConfig(
    { ...process.env, APP_ENV: 'test' },
    {
      LOG_LEVEL: 'silent',
      DATABASE_URL: databaseUrl,
      REDIS_KEY_PREFIX: redisKeyPrefix,
      INDEX_PREFIX: indexPrefix,
      STORAGE_DIR: path.join(dir, 'files'),
      MAILBOX_DIR: path.join(dir, 'mailbox'),
      DEMO_PHOTOS_DIR: path.join(dir, 'demo-photos'),
      PORT: 0,
      // Tests read what they have just indexed at once; the search result cache serves answers up
      // to 250 ms past the refresh that changed them. Its own tests (search-cache) turn it on.
      SEARCH_CACHE_TTL_MS: 0,
      ...opts.config,
    },
  );
  const sql = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  // pool.end() resolves before its idle connections have closed, and the database is later dropped
  // WITH (FORCE): such a connection gets 57P01, which an 'error' listener must take, or it becomes
  // an uncaught exception that fails the whole run.
  sql.on('error', () => {});
  let closing: Promise<void> | undefined;
  const env: IsolatedEnv = {
    config,
    databaseName,
    sql,
    close: () =>
      (closing ??= (async () => {
        // Left behind, indices would be recovered again by every restart of the stack's OpenSearch
        // (the 3-node resilience suite), and keys would pile up in the developer's Redis.
        await Promise.all([deleteIndices(base.SEARCH_URL, indexPrefix), deleteKeys(base.REDIS_URL, redisKeyPrefix)]);
        await sql.end();
        await rm(dir, { recursive: true, force: true });
      })()),
  };
  opened.push({ env, id });
  return env;
}

/**
 * For an environment that never served a test (the app refused to start, as the test wanted):
 * closed and its database dropped now.
 */
export async function discardIsolatedEnv(env: IsolatedEnv): Promise<void> {
  const i = opened.findIndex((o) => o.env === env);
  if (i >= 0) opened.splice(i, 1);
  await env.close();
  await dropDatabase(baseConfig().DATABASE_URL, env.databaseName);
}

/**
 * At the end of each test file (test/support/file-setup.ts): closes what the file left open, then
 * drops its databases when every test passed, or keeps them under a `guest_kept_…` name and prints
 * it when one failed, to be looked at (`psql <url>`). `npm run test:drop-kept` removes kept ones.
 */
export async function settleIsolatedEnvs(file: Readonly<RunnerTask>): Promise<void> {
  const failed = hasFailed(file);
  const baseUrl = baseConfig().DATABASE_URL;
  for (const { env, id } of opened.splice(0)) {
    await env.close().catch(() => {});
    if (!failed) {
      await dropDatabase(baseUrl, env.databaseName);
      continue;
    }
    const slug = path
      .basename(file.name)
      .replace(/\.test\.ts$/, '')
      .replace(/[^a-z0-9]+/gi, '_')
      .toLowerCase();
    const kept = `guest_kept_${id}_${slug}`.slice(0, 63);
    try {
      await renameDatabase(baseUrl, env.databaseName, kept);
    } catch (err) {
      console.warn(
        `${file.name} failed; its database ${env.databaseName} could not be kept: ${(err as Error).message}`,
      );
      continue;
    }
    const url = new URL(baseUrl);
    url.pathname = `/${kept}`;
    console.warn(`${file.name} failed: its database is kept as ${kept} (${url.toString()})`);
  }
}

function hasFailed(task: Readonly<RunnerTask>): boolean {
  return task.result?.state === 'fail' || ('tasks' in task && task.tasks.some(hasFailed));
}

async function deleteIndices(searchUrl: string, prefix: string): Promise<void> {
  const url = new URL(`/${prefix}-*`, searchUrl);
  url.search = 'ignore_unavailable=true&allow_no_indices=true&expand_wildcards=open,closed';
  // A test that points its app at an unreachable engine may have nothing there to delete.
  await fetch(url, { method: 'DELETE', signal: AbortSignal.timeout(30_000) }).catch(() => {});
}

async function deleteKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, connectTimeout: 2_000 });
  redis.on('error', () => {});
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } catch {
    // a test that points its app at an unreachable Redis has nothing to clean up there
  } finally {
    redis.disconnect();
  }
}

function adminUrl(baseUrl: string): string {
  const admin = new URL(baseUrl);
  admin.pathname = '/postgres';
  return admin.toString();
}

async function withAdmin<T>(baseUrl: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl(baseUrl) });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates database `name` as a copy of the migrated template of this run; returns its URL. */
export async function cloneTemplate(baseUrl: string, name: string): Promise<string> {
  await withAdmin(baseUrl, async (client) => {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`create database "${name}" template "${inject('templateDatabase')}"`);
        return;
      } catch (err) {
        // Two clones of one template at the same moment can collide; the second simply tries again.
        if (attempt >= 20 || !/being accessed by other users/.test(String((err as Error)?.message))) throw err;
        await new Promise((r) => setTimeout(r, 150));
      }
    }
  });
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Clients of pools a test just closed can still be saying goodbye: forcing them out then kills
 * them mid-way, and their error surfaces in the test process as an uncaught exception. Waits for
 * them to go (a few seconds at most); whatever a test leaked is then forced out by the caller.
 */
async function connectionsGone(client: pg.Client, name: string): Promise<void> {
  await eventually(
    `the connections to ${name} to close`,
    async () =>
      (
        await client.query<{ n: number }>(
          'select count(*)::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
          [name],
        )
      ).rows[0]?.n,
    { timeoutMs: 5_000, intervalMs: 50, until: (n) => !n },
  ).catch(() => {});
}

export async function dropDatabase(baseUrl: string, name: string): Promise<void> {
  await withAdmin(baseUrl, async (client) => {
    await connectionsGone(client, name);
    await client.query(`drop database if exists "${name}" with (force)`);
  });
}

async function renameDatabase(baseUrl: string, name: string, to: string): Promise<void> {
  await withAdmin(baseUrl, async (client) => {
    await connectionsGone(client, name);
    await client.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [name]);
    await client.query(`alter database "${name}" rename to "${to}"`);
  });
}
