import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { loadConfig, type Config } from '@guest/config';
import { createRuntime, type Clock, type Runtime } from '@guest/runtime';
import { cloneTemplate, dropDatabase } from './test-database.ts';

export interface TestRuntime {
  runtime: Runtime;
  config: Config;
  /** Raw SQL on this test's own database. */
  sql: pg.Pool;
  close(): Promise<void>;
}

/**
 * A Runtime without HTTP (indexer, CLI-level tests) isolated like `startTestApp`: its own
 * database cloned from the migrated template, its own Redis key prefix and index prefix. On
 * close, its indices and database are removed.
 */
export async function startTestRuntime(
  opts: { config?: Partial<Record<keyof Config, string | number | boolean>>; clock?: Clock } = {},
): Promise<TestRuntime> {
  const id = `${process.pid}_${randomBytes(4).toString('hex')}`;
  const base = loadConfig({ ...process.env, APP_ENV: 'test' });
  const dbName = `guest_test_${id}`;
  const databaseUrl = await cloneTemplate(base.DATABASE_URL, dbName);
  const config = loadConfig(
    { ...process.env, APP_ENV: 'test' },
    {
      LOG_LEVEL: 'silent',
      DATABASE_URL: databaseUrl,
      REDIS_KEY_PREFIX: `test:${id}:`,
      INDEX_PREFIX: `t${id.replace(/_/g, '-')}`.toLowerCase(),
      ...opts.config,
    },
  );
  const runtime = createRuntime(config, opts.clock ? { clock: opts.clock } : {});
  const sql = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  // pool.end() resolves before its idle connections have closed, and close() then drops the
  // database WITH (FORCE): such a connection gets 57P01, which an 'error' listener must take, or
  // it becomes an uncaught exception that fails the whole run.
  sql.on('error', () => {});
  return {
    runtime,
    config,
    sql,
    async close() {
      await runtime.search.raw.indices
        .delete({ index: `${config.INDEX_PREFIX}-*`, ignore_unavailable: true } as never)
        .catch(() => {});
      await runtime.close();
      await sql.end();
      await dropDatabase(base.DATABASE_URL, dbName);
    },
  };
}
