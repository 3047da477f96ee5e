import { AsyncLocalStorage } from 'node:async_hooks';
import { PgBoss, type Clock, type Db, type SendOptions } from 'pg-boss';

/** What `sendInTransaction` needs of a `Database` (`@guest/db`): its pool and pg-boss' schema. */
export interface JobsDatabase {
  pool: { query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> };
  jobsSchema: string;
}

interface Sender {
  boss: PgBoss;
  /** Set while (or once) `start` succeeds; cleared when it fails, so the next send tries again. */
  starting: Promise<unknown> | null;
  /** Queues seen to exist: a queue, once created, is never deleted here, so one look is enough. */
  known: Set<string>;
}

/** The caller's connection during a `sendInTransaction`: where the sender runs its statements. */
const callerDb = new AsyncLocalStorage<Db>();

/**
 * The sender's timers (its queue-cache refresh) never keep a process alive, so a CLI that queued
 * a job still exits when its work is done, and never run on a caller's connection: one is made
 * while a caller's transaction is current, and would otherwise keep it as its context.
 */
const backgroundClock: Clock = {
  // eslint-disable-next-line no-restricted-syntax -- pg-boss's own cache timers, as its default clock
  now: () => Date.now(),
  setTimeout: (fn, ms) => callerDb.exit(() => setTimeout(fn, ms)).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  setInterval: (fn, ms) => callerDb.exit(() => setInterval(fn, ms)).unref(),
  clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
};

const senders = new WeakMap<JobsDatabase['pool'], Map<string, Sender>>();

/**
 * One send-only pg-boss per pool and schema, started once. pg-boss 12 resolves a queue (its
 * table, policy) through the instance's own connection before it inserts on the `db` given to
 * `send`, so the instance must be started and have a connection: here it is the caller's own
 * (`callerDb`), so a send never waits for a second connection (a caller holding the last one of
 * its pool would wait forever), and its start and queue look-ups see what the caller's
 * transaction sees. Only the background cache refresh uses the pool. It never migrates,
 * maintains, schedules or registers itself; after the first look-up of a queue its sends run the
 * insert alone.
 */
function senderFor(database: JobsDatabase): Sender {
  let bySchema = senders.get(database.pool);
  if (!bySchema) {
    bySchema = new Map();
    senders.set(database.pool, bySchema);
  }
  let sender = bySchema.get(database.jobsSchema);
  if (!sender) {
    const { pool } = database;
    const db: Db = {
      executeSql: (text, values) =>
        callerDb.getStore()?.executeSql(text, values) ?? (pool.query(text, values) as Promise<{ rows: never[] }>),
    };
    const boss = new PgBoss({
      db,
      schema: database.jobsSchema,
      migrate: false,
      supervise: false,
      schedule: false,
      registerInstance: false,
      clock: backgroundClock,
    });
    // A failed cache refresh (pool closed, database away) is retried by pg-boss; nothing to crash for.
    boss.on('error', () => {});
    sender = { boss, starting: null, known: new Set() };
    bySchema.set(database.jobsSchema, sender);
  }
  return sender;
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Whether `queue` exists, read on the caller's connection so it agrees with what the caller's
 * transaction sees (and with any lock it holds): no pg-boss schema yet, or no such queue, is
 * `false`.
 */
async function queueExists(db: Db, jobsSchema: string, queue: string): Promise<boolean> {
  const installed = await db.executeSql('select to_regclass($1) is not null as installed', [
    `${quoted(jobsSchema)}.queue`,
  ]);
  if (!installed.rows[0]?.installed) return false;
  const found = await db.executeSql(
    `select exists (select 1 from ${quoted(jobsSchema)}.queue where name = $1) as present`,
    [queue],
  );
  return Boolean(found.rows[0]?.present);
}

/**
 * Sends a job through the caller's own connection (`db`, usually an open transaction): the job
 * exists exactly when the transaction commits. For code that writes in a transaction and only
 * needs to queue work, without a `Jobs` of its own.
 *
 * When `queue` does not exist (no worker has created it yet, or pg-boss has not made its schema)
 * nothing is inserted and the answer is `null`, as with a duplicate singleton: the caller's
 * transaction goes on. pg-boss 12 would throw "Queue … does not exist" instead, so this is
 * checked first, on `db`.
 */
export async function sendInTransaction(
  database: JobsDatabase,
  db: Db,
  queue: string,
  data: object,
  opts: SendOptions = {},
): Promise<string | null> {
  const sender = senderFor(database);
  if (!sender.known.has(queue)) {
    if (!(await queueExists(db, database.jobsSchema, queue))) return null;
    sender.known.add(queue);
  }
  return callerDb.run(db, async () => {
    if (!sender.starting) {
      sender.starting = sender.boss.start().catch((err: unknown) => {
        sender.starting = null;
        throw err;
      });
    }
    await sender.starting;
    return sender.boss.send(queue, data, { ...opts, db });
  });
}
