import { sendInTransaction, type JobDb, type JobsDatabase, type QueueSpec } from '@guest/jobs';

/** The pg-boss queue whose jobs say "outbox rows are due": the worker drains them with `drainOnce`. */
export const CATALOG_CHANGES_QUEUE = 'catalog-changes';

/**
 * `short`: at most one queued (not yet fetched) job per singleton key, so a burst of imports
 * queues one job, not thousands; a job already running does not block the next one, so changes
 * committed while a drain runs always get a job of their own. A job whose drain fails (Postgres
 * unreachable) is retried by pg-boss; one that outlives `expireInSeconds` (its worker died) too.
 */
export const catalogChangesQueueSpec: QueueSpec = {
  name: CATALOG_CHANGES_QUEUE,
  policy: 'short',
  retryLimit: 20,
  retryDelay: 5,
  retryBackoff: true,
  expireInSeconds: 15 * 60,
};

/** Singleton key of "due now" jobs; delayed jobs are keyed by their due second. */
const DUE_NOW = 'due';

/**
 * Writers take this advisory lock (shared, until their commit) where they queue the job; a worker
 * that has just created the queue takes it exclusively once before its first drain. See
 * `signalCatalogChanges`.
 */
export const SIGNAL_LOCK_SQL = (mode: 'shared' | 'exclusive') =>
  `select ${mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock'}(hashtext('catalog-changes:signal'), 0)`;

/**
 * Queues a `catalog-changes` job in the caller's transaction (`db` runs on its connection), so it
 * exists exactly when the outbox rows written by that transaction commit. Without `dueAt` the job
 * runs now; with it (rows retrying later) not before `dueAt`. Duplicates collapse (see the queue
 * spec): a job already queued for the same moment is enough.
 *
 * Before any worker has started on this database there is no pg-boss schema or no queue, and
 * nothing is queued (`sendInTransaction` checks on `db`): every worker drains once on start,
 * after creating the queue. The shared advisory lock closes the gap between the two: a worker
 * waits for writers that checked before the queue existed to commit, then drains, so their rows
 * are seen.
 */
export async function signalCatalogChanges(db: JobDb, database: JobsDatabase, dueAt?: Date): Promise<void> {
  await db.executeSql(SIGNAL_LOCK_SQL('shared'), []);
  // After the lock: the queue check in `sendInTransaction`, a statement of its own, must see a
  // queue created before the lock was granted.
  const opts = dueAt
    ? { startAfter: dueAt, singletonKey: `retry:${Math.ceil(dueAt.getTime() / 1000)}` }
    : { singletonKey: DUE_NOW };
  await sendInTransaction(database, db, CATALOG_CHANGES_QUEUE, {}, opts);
  // Delivered at commit to workers listening (`startOutboxWorker`): they drain at once instead of
  // when their next poll fetches the job (which stays, for workers that do not listen).
  if (!dueAt) await db.executeSql(`select pg_notify('${CATALOG_CHANGES_CHANNEL}', '')`, []);
}

/** The Postgres notification channel of "outbox rows are due now". */
export const CATALOG_CHANGES_CHANNEL = 'catalog_changes';

/** A `JobDb` over anything with pg's `query` (a pool client inside `begin`/`commit`). */
export const jobDbOf = (client: { query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> }): JobDb => ({
  executeSql: (text, values) => client.query(text, values) as Promise<{ rows: never[] }>,
});
