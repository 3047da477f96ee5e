import { Redis } from 'ioredis';
import type { Config } from '@guest/config';
import { createDatabase, type Database } from '@guest/db';
import { createSearchEngine, type SearchEngine } from '@guest/search-engine';
import { createLocalStorage, type FileStorage } from '@guest/storage';
import { systemClock, type Clock } from './clock.ts';

export { systemClock, fixedClock, type Clock } from './clock.ts';

/** The real services one process talks to, made once and passed to every app plugin. */
export interface Runtime {
  config: Config;
  database: Database;
  redis: Redis;
  search: SearchEngine;
  storage: FileStorage;
  clock: Clock;
  close(): Promise<void>;
}

export function createRuntime(config: Config, opts: { clock?: Clock } = {}): Runtime {
  const database = createDatabase(config.DATABASE_URL, config.DATABASE_POOL_MAX, { jobsSchema: config.JOBS_SCHEMA });
  const redis = new Redis(config.REDIS_URL, {
    keyPrefix: config.REDIS_KEY_PREFIX,
    lazyConnect: false,
    maxRetriesPerRequest: 2,
    enableOfflineQueue: true,
  });
  // Reconnects are ioredis' job; an 'error' event with no listener would crash the process.
  redis.on('error', () => {});
  const search = createSearchEngine(config.OPENSEARCH_URL);
  const storage = createLocalStorage(config.STORAGE_DIR);
  let closed = false;
  return {
    config,
    database,
    redis,
    search,
    storage,
    clock: opts.clock ?? systemClock,
    async close() {
      if (closed) return;
      closed = true;
      await Promise.allSettled([database.close(), redis.quit(), search.close()]);
    },
  };
}
