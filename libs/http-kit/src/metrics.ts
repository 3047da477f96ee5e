import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Runtime } from '@guest/runtime';
import { indexerStats, jobQueueDepths } from '@guest/catalog';

const STATS_TIMEOUT_MS = 2000;

function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('no answer')), STATS_TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * The server's Prometheus metrics. One registry per server (not prom-client's global one), so
 * several servers in one process (the tests) never register a metric twice or mix their counts.
 */
export function createMetrics(app: FastifyInstance, runtime: Runtime): Registry {
  const registry = new Registry();

  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from request to answer, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', async (req, reply) => {
    // The route pattern (`/v1/events/:id`), never the URL: ids and query strings would make a
    // series per request (and put query values in the metrics). Unmatched paths share one label.
    const route = req.routeOptions.url ?? 'unmatched';
    const labels = { method: req.method, route, status: String(reply.statusCode) };
    requests.inc(labels);
    durations.observe(labels, reply.elapsedTime / 1000);
  });

  const engineCalls = new Histogram({
    name: 'search_engine_call_duration_seconds',
    help: 'Search engine calls by operation (search, count, bulk, ping…) and outcome.',
    labelNames: ['operation', 'outcome'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const stopObserving = runtime.observeEngineCalls((operation, seconds, outcome) =>
    engineCalls.observe({ operation, outcome }, seconds),
  );
  app.addHook('onClose', async () => stopObserving());

  // Read at scrape time from the same source as `/health` (`indexerStats`): a gauge kept in
  // this process would only know what this process indexed, and the worker is another process.
  // When the database does not answer, the gauges keep their last values and
  // `guest_metrics_source_up` says the reading failed.
  const sourceUp = new Gauge({
    name: 'guest_metrics_source_up',
    help: '1 when the last scrape read the indexer and queue figures from Postgres, 0 when it failed.',
    registers: [registry],
  });
  const pending = new Gauge({
    name: 'indexer_pending_changes',
    help: 'Catalog changes committed but not yet in the search index.',
    registers: [registry],
  });
  const lag = new Gauge({
    name: 'indexer_lag_seconds',
    help: 'Age of the oldest pending catalog change: how far search is behind.',
    registers: [registry],
  });
  const retrying = new Gauge({
    name: 'indexer_retrying_changes',
    help: 'Pending catalog changes that failed at least once and are retried with backoff.',
    registers: [registry],
  });
  const dead = new Gauge({
    name: 'indexer_dead_changes',
    help: 'Catalog changes that exhausted their attempts and wait for an operator.',
    registers: [registry],
  });
  const queueDepth = new Gauge({
    name: 'job_queue_depth',
    help: 'Jobs waiting in each pg-boss queue (created or waiting for a retry).',
    labelNames: ['queue'] as const,
    registers: [registry],
  });
  // prom-client collects the gauges in parallel, each awaiting its own collect: they all await
  // one shared reading, so a scrape shows this scrape's figures, read once.
  let reading: Promise<void> | null = null;
  const readStats = () => {
    reading ??= (async () => {
      try {
        const [stats, depths] = await withTimeout(
          Promise.all([indexerStats(runtime.database), jobQueueDepths(runtime.database)]),
        );
        pending.set(stats.pending);
        lag.set(stats.lag_s);
        retrying.set(stats.retrying);
        dead.set(stats.dead);
        queueDepth.reset();
        for (const [queue, depth] of Object.entries(depths)) queueDepth.set({ queue }, depth);
        sourceUp.set(1);
      } catch {
        sourceUp.set(0);
      }
    })().finally(() => {
      reading = null;
    });
    return reading;
  };
  for (const g of [sourceUp, pending, lag, retrying, dead, queueDepth])
    (g as unknown as { collect: () => Promise<void> }).collect = readStats;

  return registry;
}

/** A gauge read at each scrape from `read` (e.g. the sockets a gateway in this process holds). */
export function addGauge(registry: Registry, name: string, help: string, read: () => number): void {
  new Gauge({
    name,
    help,
    registers: [registry],
    collect() {
      this.set(read());
    },
  });
}
