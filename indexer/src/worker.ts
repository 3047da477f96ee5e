import type pg from 'pg';
import type { Runtime } from '@guest/runtime';
import { drainOnce, type DrainResult } from './outbox/drain.ts';
import { indexerStats } from '@guest/catalog';
import { ensureIndices } from './engine/aliases.ts';
import { applyDeps, drainOptions, type Logger } from './deps.ts';

export interface OutboxWorker {
  /** Resolves when a pass found nothing due (for tests and the dev loader). */
  idle(): Promise<void>;
  stop(): Promise<void>;
  readonly totals: { applied: number; failed: number; dead: number; documents: number };
}

/**
 * Drains the catalog outbox into the index until stopped. Wakes on NOTIFY `catalog_outbox`
 * (sent by every import at commit) and at least every INDEXER_POLL_MS, which also picks up rows
 * whose retry delay has passed. Any number of workers may run: rows are claimed SKIP LOCKED.
 */
export async function startOutboxWorker(rt: Runtime, log: Logger): Promise<OutboxWorker> {
  await ensureIndices(rt.search, rt.config.INDEX_PREFIX, rt.config.INDEX_REPLICAS);
  const deps = applyDeps(rt);
  const opts = drainOptions(rt);
  const totals = { applied: 0, failed: 0, dead: 0, documents: 0 };
  let stopped = false;
  let wake: (() => void) | null = null;
  const kick = () => wake?.();
  let idleWaiters: Array<() => void> = [];

  const listener: pg.PoolClient = await rt.database.pool.connect();
  listener.on('notification', kick);
  await listener.query('listen catalog_outbox');

  const statsTimer = setInterval(() => {
    indexerStats(rt.database)
      .then((s) => log.info({ indexer: s, totals }, 'indexer stats'))
      .catch((err) => log.warn({ err }, 'indexer stats failed'));
  }, rt.config.INDEXER_STATS_LOG_MS);
  statsTimer.unref();

  const loop = (async () => {
    while (!stopped) {
      let r: DrainResult | null = null;
      try {
        r = await drainOnce(rt.database, deps, opts);
        totals.applied += r.applied;
        totals.failed += r.failed;
        totals.dead += r.dead;
        totals.documents += r.documents;
        if (r.claimed) log.info({ drain: r }, 'outbox batch');
        if (r.failed || r.dead) log.warn({ drain: r }, 'outbox batch had failures');
      } catch (err) {
        log.error({ err }, 'outbox drain failed');
      }
      // A full batch means more is probably waiting: go on without sleeping.
      if (r && r.claimed === opts.batchSize) continue;
      if (r && r.claimed === 0) {
        const waiters = idleWaiters;
        idleWaiters = [];
        waiters.forEach((w) => w());
      }
      if (stopped) break;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, rt.config.INDEXER_POLL_MS);
        wake = () => {
          clearTimeout(t);
          resolve();
        };
      });
      wake = null;
    }
  })();

  return {
    totals,
    idle: () =>
      new Promise<void>((resolve) => {
        idleWaiters.push(resolve);
        kick();
      }),
    async stop() {
      stopped = true;
      kick();
      clearInterval(statsTimer);
      await loop;
      const waiters = idleWaiters;
      idleWaiters = [];
      waiters.forEach((w) => w());
      await listener.query('unlisten catalog_outbox').catch(() => {});
      listener.release();
    },
  };
}
