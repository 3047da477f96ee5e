import { PgBoss, type Db, type Job as BossJob, type QueuePolicy, type SendOptions } from 'pg-boss';
import { drizzle } from 'drizzle-orm/node-postgres';
import { schema, type Database, type DbTx } from '@guest/db';
import { upgradeFromV10, type JobsLogger } from './upgrade-v10.ts';

export { sendInTransaction, type JobsDatabase } from './send-in-transaction.ts';
export { upgradeFromV10, type JobsLogger } from './upgrade-v10.ts';
export type { PgBoss, SendOptions };
export type Job<T> = BossJob<T>;
/** What `send` runs its insert on: pg-boss' own pool, or an open transaction (`inTransaction`). */
export type JobDb = Db;

export interface QueueSpec {
  name: string;
  retryLimit?: number;
  retryDelay?: number;
  retryBackoff?: boolean;
  expireInSeconds?: number;
  /** pg-boss queue policy, e.g. `short`: at most one queued (not yet fetched) job per singleton key. */
  policy?: QueuePolicy;
}

export interface WorkOptions {
  batchSize?: number;
  pollingIntervalSeconds?: number;
}

/**
 * A small, generic face of pg-boss shared by every worker (mail, indexing): start and stop,
 * declare queues, send (optionally inside the caller's transaction), work.
 */
export interface Jobs {
  readonly boss: PgBoss;
  start(queues: QueueSpec[]): Promise<void>;
  stop(): Promise<void>;
  send<T extends object>(queue: string, data: T, opts?: SendOptions): Promise<string | null>;
  work<T>(queue: string, opts: WorkOptions, handler: (jobs: Job<T>[]) => Promise<unknown>): Promise<string>;
}

/**
 * `log` hears the one-time upgrade of a pg-boss 10 schema (`upgradeFromV10`), which runs before
 * pg-boss starts; nothing else is logged here.
 */
export function createJobs(opts: { connectionString: string; schema: string; max?: number; log?: JobsLogger }): Jobs {
  const boss = new PgBoss({
    connectionString: opts.connectionString,
    schema: opts.schema,
    max: opts.max ?? 3,
    application_name: 'guest-jobs',
  });
  // pg-boss reports connection trouble as events; without a listener they would crash the process.
  boss.on('error', () => {});
  let started = false;
  return {
    boss,
    async start(queues) {
      if (!started) {
        // 12.x refuses a schema made by 10.x (version 24) and migrates from 25 only: ours moves it.
        await upgradeFromV10({ connectionString: opts.connectionString, schema: opts.schema, log: opts.log });
        await boss.start();
        started = true;
      }
      for (const q of queues) {
        const { name, ...options } = q;
        await boss.createQueue(name, options);
      }
    },
    async stop() {
      if (!started) return;
      started = false;
      await boss.stop({ graceful: true, timeout: 10_000 });
    },
    send: (queue, data, sendOpts) => boss.send(queue, data, sendOpts ?? {}),
    work: (queue, workOpts, handler) => boss.work(queue, workOpts, handler),
  };
}

/**
 * Runs `fn` in one Postgres transaction and hands it a `JobDb` on the same connection, so a job
 * sent with `{ db: jobDb }` exists exactly when the transaction's writes commit.
 */
export async function inTransaction<T>(database: Database, fn: (dbTx: DbTx, jobDb: JobDb) => Promise<T>): Promise<T> {
  const client = await database.pool.connect();
  try {
    const db = drizzle(client, { schema });
    const jobDb: JobDb = { executeSql: (text, values) => client.query(text, values) };
    return await db.transaction((dbTx) => fn(dbTx, jobDb));
  } finally {
    client.release();
  }
}
