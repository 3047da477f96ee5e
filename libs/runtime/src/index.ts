import { Redis } from 'ioredis';
import type { Config } from '@guest/config';
import { createDatabase, type Database } from '@guest/db';
import { createSearchEngine, withCallTiming, type EngineCallObserver, type SearchEngine } from '@guest/search-engine';
import { createLocalStorage, type FileStorage } from '@guest/storage';
import { systemClock, type Clock } from './clock.ts';

export { systemClock, fixedClock, type Clock, type ManualClock } from './clock.ts';

/**
 * Redis for the request path (DESIGN.md section 6: a dependency that is down is a fast 503 or,
 * for rate limits, a request let through; never a request that waits on retries). Commands
 * issued before the first connection attempt has ended wait for it (start-up); after that, while
 * Redis is unreachable, every command fails at once: no offline queue, no re-sending of commands
 * that were in flight when the connection dropped, a bounded connect and command time. ioredis
 * keeps reconnecting in the background, so the service recovers by itself.
 */
export function createRedis(config: Config): Redis {
  const redis = new Redis(config.REDIS_URL, {
    keyPrefix: config.REDIS_KEY_PREFIX,
    lazyConnect: false,
    connectTimeout: config.REDIS_CONNECT_TIMEOUT_MS,
    commandTimeout: config.REDIS_COMMAND_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: true,
    // Reconnect soon, but never more often than every 100 ms, nor less often than every second.
    retryStrategy: (times) => Math.min(100 * times, 1000),
  });
  const settle = () => {
    redis.options.enableOfflineQueue = false;
  };
  redis.once('ready', settle);
  redis.once('error', settle);
  redis.once('end', settle);
  // Reconnects are ioredis' job; an 'error' event with no listener would crash the process.
  redis.on('error', () => {});
  return redis;
}

/**
 * Resolves once the Redis client's first connection attempt has ended, connected or not (at most
 * `REDIS_CONNECT_TIMEOUT_MS` plus a little): a server calls it before it listens, so its first
 * requests neither queue nor fail for a connection that was about to be made.
 */
export function redisSettled(redis: Redis, timeoutMs: number): Promise<void> {
  if (!redis.options.enableOfflineQueue || redis.status === 'ready' || redis.status === 'end') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      redis.off('ready', done);
      redis.off('error', done);
      redis.off('end', done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs + 100);
    redis.once('ready', done);
    redis.once('error', done);
    redis.once('end', done);
  });
}

/** The real services one process talks to, made once and passed to every app plugin. */
export interface Runtime {
  config: Config;
  database: Database;
  redis: Redis;
  search: SearchEngine;
  /** Hears every finished call of `search` (operation and duration), e.g. for `/metrics`; returns the remover. */
  observeEngineCalls(observer: EngineCallObserver): () => void;
  storage: FileStorage;
  clock: Clock;
  close(): Promise<void>;
}

export function createRuntime(config: Config, opts: { clock?: Clock } = {}): Runtime {
  const database = createDatabase(config.DATABASE_URL, config.DATABASE_POOL_MAX, {
    jobsSchema: config.JOBS_SCHEMA,
    connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
  });
  const redis = createRedis(config);
  const search = withCallTiming(
    createSearchEngine(config.SEARCH_ENGINE, config.SEARCH_URL, { requestTimeoutMs: config.SEARCH_REQUEST_TIMEOUT_MS }),
  );
  const storage = createLocalStorage(config.STORAGE_DIR);
  let closed = false;
  return {
    config,
    database,
    redis,
    search,
    observeEngineCalls: (observer) => search.observeCalls(observer),
    storage,
    clock: opts.clock ?? systemClock,
    async close() {
      if (closed) return;
      closed = true;
      // QUIT needs a connection: while Redis is down the client is just stopped.
      const redisClosed = redis.status === 'ready' ? redis.quit() : Promise.resolve(redis.disconnect());
      await Promise.allSettled([database.close(), redisClosed, search.close()]);
    },
  };
}
