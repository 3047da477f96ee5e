import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { cloneTemplate, dropDatabase } from './test-database.ts';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from '@guest/config';
import { createRuntime, type Clock, type Runtime } from '@guest/runtime';
import { createServer, type AppPlugin } from '@guest/http-kit';

export interface TestApp {
  url: string;
  app: FastifyInstance;
  runtime: Runtime;
  config: Config;
  /** Raw SQL on this test's own database. */
  sql: pg.Pool;
  close(): Promise<void>;
}

export interface TestAppOptions {
  apps: AppPlugin[];
  config?: Partial<Record<keyof Config, string | number | boolean>>;
  clock?: Clock;
  /** The URL the app's runtime uses for its own (cloned) database, e.g. through a forwarder. */
  rewriteDatabaseUrl?: (url: string) => string;
  /** Captures the server's log lines (at the config's LOG_LEVEL) instead of dropping them. */
  logStream?: { write(line: string): void };
}

/**
 * Starts the real server on a random port against real Postgres, Redis and OpenSearch, isolated
 * from every other test file: its own database (cloned from the migrated template), its own Redis
 * key prefix, its own index prefix, its own file and mail directories.
 */
export async function startTestApp(opts: TestAppOptions): Promise<TestApp> {
  const id = `${process.pid}_${randomBytes(4).toString('hex')}`;
  const base = loadConfig({ ...process.env, APP_ENV: 'test' });
  const dbName = `guest_test_${id}`;
  const databaseUrl = await cloneTemplate(base.DATABASE_URL, dbName);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'guest-test-'));
  const config = loadConfig(
    { ...process.env, APP_ENV: 'test' },
    {
      LOG_LEVEL: 'silent',
      DATABASE_URL: opts.rewriteDatabaseUrl ? opts.rewriteDatabaseUrl(databaseUrl) : databaseUrl,
      REDIS_KEY_PREFIX: `test:${id}:`,
      INDEX_PREFIX: `t${id.replace(/_/g, '-')}`.toLowerCase(),
      STORAGE_DIR: path.join(dir, 'files'),
      MAILBOX_DIR: path.join(dir, 'mailbox'),
      PORT: 0,
      ...opts.config,
    },
  );
  const runtime = createRuntime(config, opts.clock ? { clock: opts.clock } : {});
  let app: FastifyInstance;
  try {
    app = await createServer({
      runtime,
      apps: opts.apps,
      version: 'test',
      ...(opts.logStream ? { logStream: opts.logStream } : { logger: false }),
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
  } catch (err) {
    // A test that expects the server to refuse to start must not leak its connections.
    await runtime.close();
    await dropDatabase(base.DATABASE_URL, dbName);
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const sql = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  // pool.end() resolves before its idle connections have closed, and close() then drops the
  // database WITH (FORCE): such a connection gets 57P01, which an 'error' listener must take, or
  // it becomes an uncaught exception that fails the whole run.
  sql.on('error', () => {});
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    runtime,
    config,
    sql,
    async close() {
      await app.close();
      try {
        const keys = await runtime.redis.keys('*');
        // ioredis applies keyPrefix to commands but KEYS returns full names: strip it before DEL.
        if (keys.length) await runtime.redis.del(...keys.map((k) => k.slice(config.REDIS_KEY_PREFIX.length)));
      } catch {
        // a test that points the app at an unreachable Redis has nothing to clean up there
      }
      // Its indices too (as startTestRuntime does): left behind, every restart of the stack's
      // OpenSearch (the 3-node resilience suite) would recover them all again.
      await runtime.search.raw.indices
        .delete({ index: `${config.INDEX_PREFIX}-*`, ignore_unavailable: true } as never)
        .catch(() => {});
      await runtime.close();
      await sql.end();
      await dropDatabase(base.DATABASE_URL, dbName);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
