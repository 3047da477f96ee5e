import type { Redis } from 'ioredis';
import type { Config } from '@guest/config';
import type { Database } from '@guest/db';
import type { Jobs } from '@guest/jobs';
import type { Clock } from '@guest/runtime';
import type { FileStorage } from '@guest/storage';
import type { CursorCodec, RateLimiter } from '@guest/http-kit';
import type { WorkPool } from './work/pool.ts';

/** Where a service reports what it does not raise (best-effort work that failed). */
export interface Log {
  warn(obj: object, msg: string): void;
}

/**
 * Everything a service of the write API may use, made once per app (`app.ts`). Services take the
 * part they need (`Pick<WriteDeps, 'database' | 'config'>`), never the Fastify instance, so tests,
 * benches and scripts can call them with the same objects.
 */
export interface WriteDeps {
  config: Config;
  database: Database;
  redis: Redis;
  storage: FileStorage;
  clock: Clock;
  jobs: Jobs;
  cursors: CursorCodec;
  rateLimiter: RateLimiter;
  /** Threads for work that would hold the event loop: image decoding, password strength. */
  work: { images: WorkPool; passwords: WorkPool };
  log: Log;
}
