import type { Runtime } from '@guest/runtime';
import { createJobs } from '@guest/jobs';
import { drainOnce, type DrainResult } from './outbox/drain.ts';
import {
  CATALOG_CHANGES_CHANNEL,
  CATALOG_CHANGES_QUEUE,
  catalogChangesQueueSpec,
  SIGNAL_LOCK_SQL,
} from './outbox/signal.ts';
import pg from 'pg';
import { aliasName, INDEX_KINDS, indexerStats } from '@guest/catalog';
import { ensureIndices, staleIndexKinds } from './engine/aliases.ts';
import { reindexAll } from './reindex.ts';
import { applyDeps, drainOptions, type Logger } from './deps.ts';

export interface OutboxWorker {
  /** Drains until nothing is due now, then resolves (for tests and the dev loader). */
  idle(): Promise<void>;
  stop(): Promise<void>;
  readonly totals: { applied: number; failed: number; dead: number; documents: number };
}

/**
 * Applies catalog changes to the index until stopped. The outbox rows are the source of truth
 * (versions, attempts, dead letters); pg-boss jobs on `catalog-changes` say when to look at them.
 * Every transaction that writes outbox rows queues such a job (collapsed: at most one waiting),
 * and a drain that leaves rows to retry queues one for when they are due. Each job runs
 * `drainOnce` until a batch comes back short; a full batch also queues a job, so that other idle
 * workers join in. Any number of workers may run: rows are claimed SKIP LOCKED.
 *
 * On start the worker drains once without waiting for a job: rows left by a crashed worker (its
 * job is retried only when it expires) and rows written before any worker had created the queue.
 */
export async function startOutboxWorker(rt: Runtime, log: Logger): Promise<OutboxWorker> {
  await ensureIndices(rt.search, rt.config.INDEX_PREFIX, rt.config.INDEX_REPLICAS);
  // A deployment with changed mappings rolls them out here: fresh indices built from Postgres,
  // aliases swapped at once (readers keep the old ones until then), as `indexer reindex` does.
  const stale = await staleIndexKinds(rt.search, rt.config.INDEX_PREFIX);
  if (stale.length) {
    log.warn({ stale }, 'indices built from older mappings: rebuilding them before draining');
    await reindexAll(rt, log);
  }
  const deps = applyDeps(rt);
  const opts = drainOptions(rt);
  const totals = { applied: 0, failed: 0, dead: 0, documents: 0 };
  let stopped = false;

  const jobs = createJobs({ connectionString: rt.config.DATABASE_URL, schema: rt.config.JOBS_SCHEMA, log });
  await jobs.start([catalogChangesQueueSpec]);
  // Writers that found no queue yet (see `signalCatalogChanges`) commit before the first drain.
  await rt.database.pool.query(SIGNAL_LOCK_SQL('exclusive'));

  const statsTimer = setInterval(() => {
    indexerStats(rt.database)
      .then((s) => log.info({ indexer: s, totals }, 'indexer stats'))
      .catch((err) => log.warn({ err }, 'indexer stats failed'));
  }, rt.config.INDEXER_STATS_LOG_MS);
  statsTimer.unref();

  const aliases = INDEX_KINDS.map((kind) => aliasName(rt.config.INDEX_PREFIX, kind));
  const pass = async (): Promise<DrainResult> => {
    const r = await drainOnce(rt.database, deps, opts);
    if (r.documents && rt.config.INDEXER_REFRESH_AFTER_BATCH) {
      // Visible now rather than at the next scheduled refresh; a failed refresh only delays
      // visibility until that one.
      await rt.search.refresh(aliases.join(',')).catch((err) => log.warn({ err }, 'refresh after a batch failed'));
    }
    totals.applied += r.applied;
    totals.failed += r.failed;
    totals.dead += r.dead;
    totals.documents += r.documents;
    if (r.claimed) log.info({ drain: r }, 'outbox batch');
    if (r.failed || r.dead) log.warn({ drain: r }, 'outbox batch had failures');
    return r;
  };

  /**
   * Drains in this process one call at a time (pg-boss job, start-up drain, `idle()`), so that a
   * pass claiming nothing really means nothing is due, not that this process holds it. `untilEmpty`
   * goes on until a pass claims nothing; otherwise until a batch comes back short.
   */
  let chain: Promise<unknown> = Promise.resolve();
  const drain = (untilEmpty: boolean): Promise<void> => {
    const run = chain.then(async () => {
      while (!stopped) {
        const r = await pass();
        if (r.claimed === opts.batchSize) {
          // More is probably waiting: another worker may take a share (collapsed with any queued job).
          await jobs.send(CATALOG_CHANGES_QUEUE, {}, { singletonKey: 'due' }).catch(() => {});
          continue;
        }
        if (!untilEmpty || r.claimed === 0) return;
      }
    });
    chain = run.catch(() => {});
    return run;
  };

  const startup = drain(true).catch((err) => log.error({ err }, 'outbox drain failed'));
  await jobs.work(
    CATALOG_CHANGES_QUEUE,
    { batchSize: 1, pollingIntervalSeconds: rt.config.INDEXER_POLL_MS / 1000 },
    async () => {
      try {
        await drain(false);
      } catch (err) {
        // pg-boss retries the job (backoff); the rows stay due meanwhile.
        log.error({ err }, 'outbox drain failed');
        throw err;
      }
    },
  );

  let waiting = false;
  const listener = listenForChanges(rt.config.DATABASE_URL, log, () => {
    // One drain waiting behind the running one is enough: it sees every row due by then.
    if (waiting || stopped) return;
    waiting = true;
    void chain.then(() => {
      waiting = false;
      return drain(false).catch((err) => log.error({ err }, 'outbox drain failed'));
    });
  });

  return {
    totals,
    async idle() {
      await startup;
      if (!stopped) await drain(true);
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(statsTimer);
      await listener.close();
      // Waits for a job in progress; the drain loop ends after its current batch.
      await jobs.stop();
      await chain;
    },
  };
}

/**
 * Listens on `catalog_changes` (sent with every "due now" job, see `signalCatalogChanges`) and
 * calls `onChange` for each notification: a change is picked up when its transaction commits,
 * not at the next poll of the job queue, which stays as the fallback (and for retries). The
 * connection is made again after a failure.
 */
function listenForChanges(url: string, log: Logger, onChange: () => void): { close(): Promise<void> } {
  let client: pg.Client | null = null;
  let closed = false;
  let timer: NodeJS.Timeout | null = null;
  const connect = async () => {
    if (closed) return;
    const c = new pg.Client({ connectionString: url });
    client = c;
    const retry = () => {
      if (closed || client !== c) return;
      client = null;
      c.end().catch(() => {});
      timer = setTimeout(() => void connect(), 1000);
      timer.unref();
    };
    c.on('error', (err) => {
      log.warn({ err }, 'catalog change notifications lost; listening again in 1 s');
      retry();
    });
    c.on('end', retry);
    c.on('notification', onChange);
    try {
      await c.connect();
      await c.query(`LISTEN ${CATALOG_CHANGES_CHANNEL}`);
    } catch (err) {
      log.warn({ err }, 'cannot listen for catalog changes; polling the job queue meanwhile');
      retry();
    }
  };
  void connect();
  return {
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
}
