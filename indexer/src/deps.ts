import pino from 'pino';
import { referenceChangedChannel } from '@guest/catalog';
import type { Runtime } from '@guest/runtime';
import type { ApplyDeps } from './outbox/apply-changes.ts';
import type { DrainOptions } from './outbox/drain.ts';

export function applyDeps(rt: Runtime): ApplyDeps {
  return {
    db: rt.database.db,
    search: rt.search,
    indexPrefix: rt.config.INDEX_PREFIX,
    now: () => rt.clock.now(),
    horizonDays: rt.config.EVENTS_HORIZON_DAYS,
    chunkSize: rt.config.INDEXER_REINDEX_BULK_DOCS,
    publishReferenceChange: async (entities) => {
      await rt.redis.publish(referenceChangedChannel(rt.config.REDIS_KEY_PREFIX), JSON.stringify({ entities }));
    },
  };
}

export function drainOptions(rt: Runtime): DrainOptions {
  return {
    batchSize: rt.config.INDEXER_BATCH_SIZE,
    maxAttempts: rt.config.INDEXER_MAX_ATTEMPTS,
    retryBaseMs: rt.config.INDEXER_RETRY_BASE_MS,
    retryMaxMs: rt.config.INDEXER_RETRY_MAX_MS,
  };
}

/** Structured logs on stdout; progress bars go to stderr so they never mix with them. */
export function createLogger(rt: Runtime, name = 'indexer') {
  return pino({ name, level: rt.config.LOG_LEVEL });
}
export type Logger = pino.Logger;
