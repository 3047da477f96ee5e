import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import type { Config } from '@guest/config';
import { createRuntime, type Clock, type Runtime } from '@guest/runtime';
import { createServer, type AppPlugin } from '@guest/http-kit';
import { createIsolatedEnv, discardIsolatedEnv, type ConfigOverrides } from './isolated-env.ts';

/** A Runtime (config, database, Redis, search, storage, clock) in an isolated environment of its own. */
export interface TestRuntime {
  runtime: Runtime;
  config: Config;
  /** Raw SQL on this test's own database. */
  sql: pg.Pool;
  /** Closes the runtime, then the environment (its database is dropped or kept when the file ends). */
  close(): Promise<void>;
}

export interface TestApp extends TestRuntime {
  url: string;
  app: FastifyInstance;
}

export interface TestAppOptions {
  apps: AppPlugin[];
  config?: ConfigOverrides;
  clock?: Clock;
  /** The URL the app's runtime uses for its own (cloned) database, e.g. through a forwarder. */
  rewriteDatabaseUrl?: (url: string) => string;
  /** Captures the server's log lines (at the config's LOG_LEVEL) instead of dropping them. */
  logStream?: { write(line: string): void };
}

/**
 * A Runtime without HTTP (indexer, CLI-level tests), isolated like `startTestApp`: its own
 * database cloned from the migrated template, its own Redis key prefix and index prefix.
 */
export async function startTestRuntime(opts: { config?: ConfigOverrides; clock?: Clock } = {}): Promise<TestRuntime> {
  const env = await createIsolatedEnv({ config: opts.config });
  const runtime = createRuntime(env.config, opts.clock ? { clock: opts.clock } : {});
  let closing: Promise<void> | undefined;
  return {
    runtime,
    config: env.config,
    sql: env.sql,
    close: () =>
      (closing ??= (async () => {
        await runtime.close();
        await env.close();
      })()),
  };
}

/**
 * Starts the real server on a random port against real Postgres, Redis and OpenSearch, isolated
 * from every other test file (test/support/isolated-env.ts): its own database (cloned from the
 * migrated template), its own Redis key prefix, its own index prefix, its own file and mail
 * directories.
 */
export async function startTestApp(opts: TestAppOptions): Promise<TestApp> {
  const env = await createIsolatedEnv({ config: opts.config });
  const config = opts.rewriteDatabaseUrl
    ? { ...env.config, DATABASE_URL: opts.rewriteDatabaseUrl(env.config.DATABASE_URL) }
    : env.config;
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
    await discardIsolatedEnv(env);
    throw err;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    runtime,
    config: env.config,
    sql: env.sql,
    close: () =>
      (closing ??= (async () => {
        await app.close();
        await runtime.close();
        await env.close();
      })()),
  };
}
