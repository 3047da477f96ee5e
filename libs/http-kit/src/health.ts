import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Runtime } from '@guest/runtime';
// @guest/catalog depends on nothing of ours, so this adds no cycle and no dependency on the indexer.
import { indexerStats, indexPattern } from '@guest/catalog';
import { pendingMigrations } from '@guest/db';
import type { Registry } from 'prom-client';
import { AppError } from './errors/app-error.ts';
import { carriesMetricsToken, metricsAccess } from './security-headers.ts';

const CheckResult = z.object({
  status: z.enum(['ok', 'down']),
  latency_ms: z.number().int(),
  error: z.string().optional(),
  engine: z.string().optional().meta({ description: 'Search check only: opensearch or elasticsearch.' }),
  version: z.string().optional().meta({ description: 'Search check only: the engine version, when it answers.' }),
});
export const HealthResponse = z
  .object({
    status: z.enum(['ok', 'degraded', 'down']),
    version: z.string(),
    environment: z.string(),
    uptime_s: z.number().int(),
    checks: z.object({ database: CheckResult, cache: CheckResult, search: CheckResult, storage: CheckResult }),
    indexer: z
      .object({
        pending: z.number().int().meta({ description: 'Catalog changes committed but not yet in the search index.' }),
        lag_s: z
          .number()
          .meta({ description: 'Age of the oldest pending change in seconds: how far search is behind.' }),
        retrying: z
          .number()
          .int()
          .meta({ description: 'Pending changes that failed at least once (retried with backoff).' }),
        dead: z.number().int().meta({ description: 'Changes that exhausted their attempts and wait for an operator.' }),
      })
      .nullable()
      .meta({
        description:
          'Indexer lag and failures, for information: they never change `status` or the HTTP code. ' +
          'null when they could not be read.',
      }),
  })
  .meta({ id: 'HealthResponse' });

/** A check may add facts to its result (the search check names the engine and its version). */
type Check = () => Promise<void | { engine?: string; version?: string }>;
const CHECK_TIMEOUT_MS = 2000;

async function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function run(check: Check): Promise<z.infer<typeof CheckResult>> {
  const started = performance.now();
  try {
    const facts = await withTimeout(check());
    return { status: 'ok', latency_ms: Math.round(performance.now() - started), ...(facts ?? {}) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    return { status: 'down', latency_ms: Math.round(performance.now() - started), error: message.slice(0, 200) };
  }
}

export function healthChecks(runtime: Runtime): Record<'database' | 'cache' | 'search' | 'storage', Check> {
  return {
    database: async () => {
      await runtime.database.pool.query('select 1');
    },
    cache: async () => {
      const pong = await runtime.redis.ping();
      if (pong !== 'PONG') throw new Error(`unexpected PING reply ${pong}`);
    },
    // This deployment's own indices: another application's red index on a shared cluster (or an
    // index being created) is not this API's outage.
    search: () => runtime.search.ping(indexPattern(runtime.config.INDEX_PREFIX)),
    storage: () => runtime.storage.check(),
  };
}

/**
 * DESIGN.md G4d: every dependency is really exercised; 200 when all are up, 503 otherwise.
 * `indexer` (lag and failures of the catalog outbox) is shown beside the checks but never decides
 * the code: search answering from a slightly older projection is not an outage.
 */
export function registerHealth(app: FastifyInstance, runtime: Runtime, version: string): void {
  const checks = healthChecks(runtime);
  const startedAt = performance.now();
  app.withTypeProvider<ZodTypeProvider>().get(
    '/health',
    {
      schema: {
        operationId: 'getHealth',
        tags: ['monitoring'],
        summary: 'Service health with a real check of each dependency',
        description:
          'Exercises each dependency (database, cache, search engine, file storage) with a real request: 200 ' +
          'when all answer, 503 when any does not, `checks` saying which. Not rate-limited, for monitors.',
        response: { 200: HealthResponse, 503: HealthResponse },
      },
      config: {
        errors: [],
        rateLimitExempt: true,
        example: {
          response: {
            status: 'ok',
            version: '0.1.0',
            environment: 'production',
            uptime_s: 5,
            checks: {
              database: { status: 'ok', latency_ms: 10 },
              cache: { status: 'ok', latency_ms: 5 },
              search: { status: 'ok', latency_ms: 36, engine: 'opensearch', version: '3.8.0' },
              storage: { status: 'ok', latency_ms: 13 },
            },
            indexer: { pending: 0, lag_s: 0, retrying: 0, dead: 0 },
          },
        },
      },
    },
    async (_req, reply) => {
      const names = Object.keys(checks) as Array<keyof typeof checks>;
      const [results, indexer] = await Promise.all([
        Promise.all(names.map((n) => run(checks[n]))),
        withTimeout(indexerStats(runtime.database)).catch(() => null),
      ]);
      const byName = Object.fromEntries(names.map((n, i) => [n, results[i]!])) as z.infer<
        typeof HealthResponse
      >['checks'];
      // The engine comes from configuration, so it is named even when it does not answer.
      byName.search.engine ??= runtime.search.engine;
      const down = results.filter((r) => r.status === 'down').length;
      const status = down === 0 ? 'ok' : down === results.length ? 'down' : 'degraded';
      reply.header('cache-control', 'no-store');
      return reply.code(down === 0 ? 200 : 503).send({
        status,
        version,
        environment: runtime.config.APP_ENV,
        uptime_s: Math.floor((performance.now() - startedAt) / 1000),
        checks: byName,
        indexer,
      });
    },
  );
}

export const ReadyResponse = z
  .object({
    status: z.enum(['ready', 'not_ready']),
    checks: z.object({
      database: CheckResult,
      migrations: CheckResult,
      cache: CheckResult,
      search: CheckResult,
      storage: CheckResult,
    }),
  })
  .meta({ id: 'ReadyResponse' });

/**
 * DESIGN.md G4d beside `/health`: `/livez` says the process answers (no dependency is asked, so
 * an orchestrator never restarts a healthy process for a database outage); `/readyz` says it can
 * serve: every dependency answers and the database has every migration (an unmigrated database
 * would turn requests into errors), 503 naming what is not ready otherwise; `/metrics` is the
 * Prometheus text of `registry`, for the bearer of METRICS_TOKEN (`metricsAccess`).
 */
export function registerOperatorEndpoints(app: FastifyInstance, runtime: Runtime, registry: Registry): void {
  const checks = healthChecks(runtime);
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.get(
    '/livez',
    {
      schema: {
        operationId: 'getLiveness',
        tags: ['monitoring'],
        summary: 'The process answers (no dependency is checked)',
        description: 'Liveness probe: 200 while the process can answer at all; restart it when this fails.',
        response: { 200: z.object({ status: z.literal('ok') }).meta({ id: 'LiveResponse' }) },
      },
      config: { errors: [], rateLimitExempt: true, example: { response: { status: 'ok' } } },
    },
    async (_req, reply) => {
      reply.header('cache-control', 'no-store');
      return { status: 'ok' as const };
    },
  );
  typed.get(
    '/readyz',
    {
      schema: {
        operationId: 'getReadiness',
        tags: ['monitoring'],
        summary: 'Ready to serve: every dependency answers and the database has every migration',
        description:
          'Readiness probe: 200 when Postgres, Redis, the search engine and storage answer and no migration is ' +
          'pending; 503 naming each check that failed, so a load balancer sends no traffic here meanwhile.',
        response: { 200: ReadyResponse, 503: ReadyResponse },
      },
      config: {
        errors: [],
        rateLimitExempt: true,
        example: {
          response: {
            status: 'ready',
            checks: {
              database: { status: 'ok', latency_ms: 14 },
              migrations: { status: 'ok', latency_ms: 14 },
              cache: { status: 'ok', latency_ms: 4 },
              search: { status: 'ok', latency_ms: 258, engine: 'opensearch', version: '3.8.0' },
              storage: { status: 'ok', latency_ms: 41 },
            },
          },
        },
      },
    },
    async (_req, reply) => {
      const migrations: Check = async () => {
        const missing = await pendingMigrations(runtime.database.pool);
        if (missing > 0) throw new Error(`database not migrated: ${missing} migration(s) not applied`);
      };
      const all = { ...checks, migrations };
      const names = ['database', 'migrations', 'cache', 'search', 'storage'] as const;
      const results = await Promise.all(names.map((n) => run(all[n])));
      const byName = Object.fromEntries(names.map((n, i) => [n, results[i]!])) as z.infer<
        typeof ReadyResponse
      >['checks'];
      const ready = results.every((r) => r.status === 'ok');
      reply.header('cache-control', 'no-store');
      return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not_ready', checks: byName });
    },
  );
  app.get(
    '/metrics',
    {
      // Prometheus text, not JSON: an operator endpoint for scrapers (README, Operators), kept out
      // of the client document, which describes JSON answers only.
      schema: { hide: true },
      config: { rateLimitExempt: true },
    },
    async (req, reply) => {
      // Issue 32 point 8: per-route counts are the operator's, not the public's.
      const access = metricsAccess(runtime.config);
      if (access === 'closed') throw new AppError('not_found', 'No such endpoint.', { path: '/metrics' });
      if (access === 'token' && !carriesMetricsToken(req.headers.authorization, runtime.config.METRICS_TOKEN!)) {
        throw new AppError(
          'unauthorized',
          'The metrics need Authorization: Bearer <METRICS_TOKEN>.',
          { reason: 'metrics_token' },
          { 'www-authenticate': 'Bearer' },
        );
      }
      const text = await registry.metrics();
      reply.header('cache-control', 'no-store').type(registry.contentType);
      return reply.send(text);
    },
  );
}
