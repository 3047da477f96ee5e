import pg from 'pg';
import { PgBoss, type Db, type JobInsert } from 'pg-boss';

/** The part of a pino logger the upgrade uses (a Fastify `app.log` or the indexer's logger fit). */
export interface JobsLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** The schema version pg-boss 10.x leaves (12.x migrates from 25 upwards only). */
export const V10_SCHEMA_VERSION = 24;

/** Jobs copied per insert: bounds one statement's size, not the transaction's. */
const COPY_BATCH = 500;

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * pg-boss 10's own queues (`__pgboss__send-it`, which carried cron firings) are not ours to
 * copy: pg-boss 12 makes its own (same name, its own payloads) and fires the re-created
 * schedules itself.
 */
const NOT_INTERNAL = `name not like '\\_\\_pgboss\\_\\_%'`;

interface V10Queue {
  name: string;
  policy: string | null;
  retry_limit: number | null;
  retry_delay: number | null;
  retry_backoff: boolean | null;
  expire_seconds: number | null;
  retention_minutes: number | null;
  dead_letter: string | null;
}

interface V10Schedule {
  name: string;
  cron: string;
  timezone: string | null;
  data: object | null;
  options: Record<string, unknown> | null;
}

interface V10Job {
  id: string;
  name: string;
  priority: number;
  data: object | null;
  retry_limit: number;
  retry_delay: number;
  retry_backoff: boolean;
  singleton_key: string | null;
  start_after: Date;
  expire_seconds: number;
  retention_seconds: number;
  dead_letter: string | null;
}

/** Postgres' `undefined_table`. */
const UNDEFINED_TABLE = '42P01';

/**
 * Where the database stands: `<schema>` at version 24, whether `<schema>_v10` is left over, and
 * whether the schema moved between the two reads (`moving`: another process is upgrading it).
 */
async function inspect(client: pg.Client, schema: string, old: string) {
  const { rows } = await client.query<{ version_table: boolean; old_job: boolean }>(
    `select to_regclass($1) is not null as version_table, to_regclass($2) is not null as old_job`,
    [`${quoted(schema)}.version`, `${quoted(old)}.job`],
  );
  let version: number | null = null;
  let moving = false;
  if (rows[0]!.version_table) {
    try {
      const v = await client.query<{ version: number }>(`select version from ${quoted(schema)}.version`);
      version = v.rows[0]?.version ?? null;
    } catch (err) {
      // Renamed away after `to_regclass` saw it: a process starting beside this one is moving it
      // aside. Not an error: the caller waits for that process's lock and looks again.
      if ((err as { code?: string }).code !== UNDEFINED_TABLE) throw err;
      moving = true;
    }
  }
  return { isV10: version === V10_SCHEMA_VERSION, oldLeft: rows[0]!.old_job, moving };
}

/**
 * Moves a pg-boss 10 schema (version 24, which 12.x refuses to migrate) to 12.x, keeping every job
 * not yet done. Runs before pg-boss starts; a no-op (two catalog reads) on any other database.
 *
 * 1. `<schema>` is renamed to `<schema>_v10` (one statement: the jobs are then out of every
 *    reader's way and nothing is lost). Only its tables are read afterwards: its functions still
 *    name the old schema (a pg-boss 12 schema could not be moved this way, for the same reason).
 * 2. pg-boss 12 creates `<schema>` afresh; the old queues (policy, retries, expiry, retention, dead
 *    letter) and cron schedules are created in it.
 * 3. In one transaction: the old `created`, `retry` and `active` jobs are inserted through pg-boss
 *    with their id, data, priority, singleton key, start time, retry settings and count, expiry
 *    and remaining retention (an `active` one, whose worker is gone, is queued again), and
 *    `<schema>_v10` is dropped. Completed, failed and cancelled jobs are history and stay behind.
 *
 * A crash between steps leaves `<schema>_v10`, and the next start resumes at step 2 (creating a
 * queue or schedule again is harmless; a job copied with its id twice is not inserted twice).
 * A session advisory lock keeps processes starting together from upgrading at the same time: the
 * later ones wait and then find nothing to do. Processes still running pg-boss 10 on the schema
 * must be stopped first: they would write to the new tables by the old names.
 */
export async function upgradeFromV10(opts: {
  connectionString: string;
  schema: string;
  log?: JobsLogger | undefined;
}): Promise<'none' | 'upgraded'> {
  const { schema } = opts;
  const old = `${schema}_v10`;
  const log = opts.log;
  const client = new pg.Client({ connectionString: opts.connectionString, application_name: 'guest-jobs-upgrade' });
  client.on('error', () => {});
  await client.connect();
  try {
    if (!Object.values(await inspect(client, schema, old)).some(Boolean)) return 'none';

    await client.query('select pg_advisory_lock(hashtext($1))', [`guest-jobs:upgrade-v10:${schema}`]);
    // Another process may have upgraded while this one waited.
    const state = await inspect(client, schema, old);
    if (state.isV10 && state.oldLeft) {
      throw new Error(
        `pg-boss schema "${schema}" is at version ${V10_SCHEMA_VERSION} while "${old}" is left from an upgrade: ` +
          `a pg-boss 10 process made it again; stop it, then drop one of the two schemas`,
      );
    }
    if (!state.isV10 && !state.oldLeft) return 'none';

    if (state.isV10) {
      log?.info({ schema, old }, 'pg-boss 10 schema found: moving it aside to upgrade to pg-boss 12');
      await client.query(`alter schema ${quoted(schema)} rename to ${quoted(old)}`);
    } else {
      log?.warn({ schema, old }, 'resuming an interrupted pg-boss 10 upgrade');
    }

    const boss = new PgBoss({
      connectionString: opts.connectionString,
      schema,
      max: 2,
      supervise: false,
      schedule: false,
      registerInstance: false,
      application_name: 'guest-jobs-upgrade',
    });
    boss.on('error', () => {});
    await boss.start();
    try {
      await recreateQueues(client, boss, old, log);
      await copyJobs(client, boss, schema, old, log);
    } finally {
      await boss.stop({ graceful: false });
    }
    log?.info({ schema }, 'pg-boss 10 schema upgraded to pg-boss 12');
    return 'upgraded';
  } finally {
    // Ending the session releases the advisory lock.
    await client.end();
  }
}

async function recreateQueues(client: pg.Client, boss: PgBoss, old: string, log: JobsLogger | undefined) {
  const queues = (
    await client.query<V10Queue>(`select * from ${quoted(old)}.queue where ${NOT_INTERNAL} order by name`)
  ).rows;
  // Dead letter queues are named after all queues exist: pg-boss requires the target to exist.
  for (const q of queues) {
    await boss.createQueue(q.name, {
      ...(q.policy ? { policy: q.policy } : {}),
      ...(q.retry_limit != null ? { retryLimit: q.retry_limit } : {}),
      ...(q.retry_delay != null ? { retryDelay: q.retry_delay } : {}),
      ...(q.retry_backoff != null ? { retryBackoff: q.retry_backoff } : {}),
      ...(q.expire_seconds != null ? { expireInSeconds: q.expire_seconds } : {}),
      ...(q.retention_minutes != null ? { retentionSeconds: q.retention_minutes * 60 } : {}),
    });
  }
  for (const q of queues) if (q.dead_letter) await boss.updateQueue(q.name, { deadLetter: q.dead_letter });

  const schedules = (
    await client.query<V10Schedule>(`select * from ${quoted(old)}.schedule where ${NOT_INTERNAL} order by name`)
  ).rows;
  for (const s of schedules) {
    await boss.schedule(s.name, s.cron, s.data, { ...(s.options ?? {}), tz: s.timezone ?? 'UTC' });
  }
  log?.info({ queues: queues.length, schedules: schedules.length }, 'pg-boss queues and schedules re-created');
}

async function copyJobs(client: pg.Client, boss: PgBoss, schema: string, old: string, log: JobsLogger | undefined) {
  const db: Db = { executeSql: (text, values) => client.query(text, values) };
  await client.query('begin');
  try {
    // Lock the old rows' table: nothing may change them between this read and the drop.
    await client.query(`lock table ${quoted(old)}.job in exclusive mode`);
    const { rows } = await client.query<V10Job>(
      `select id, name, priority, data, retry_limit, retry_delay, retry_backoff, singleton_key, start_after,
              greatest(1, ceil(extract(epoch from expire_in)))::int as expire_seconds,
              greatest(1, ceil(extract(epoch from keep_until - start_after)))::int as retention_seconds,
              dead_letter
         from ${quoted(old)}.job
        where state in ('created', 'retry', 'active') and ${NOT_INTERNAL}
        order by name, created_on, id`,
    );
    const byQueue = new Map<string, JobInsert[]>();
    for (const j of rows) {
      const list = byQueue.get(j.name) ?? [];
      list.push({
        id: j.id,
        data: j.data ?? {},
        priority: j.priority,
        retryLimit: j.retry_limit,
        retryDelay: j.retry_delay,
        retryBackoff: j.retry_backoff,
        startAfter: j.start_after,
        expireInSeconds: j.expire_seconds,
        retentionSeconds: j.retention_seconds,
        ...(j.singleton_key != null ? { singletonKey: j.singleton_key } : {}),
        ...(j.dead_letter != null ? { deadLetter: j.dead_letter } : {}),
      });
      byQueue.set(j.name, list);
    }
    for (const [name, jobs] of byQueue) {
      for (let i = 0; i < jobs.length; i += COPY_BATCH) await boss.insert(name, jobs.slice(i, i + COPY_BATCH), { db });
    }
    // Attempts already made still count against the retry limit.
    await client.query(
      `update ${quoted(schema)}.job n set retry_count = o.retry_count
         from ${quoted(old)}.job o
        where n.name = o.name and n.id = o.id and n.state = 'created' and o.retry_count > 0`,
    );
    await client.query(`drop schema ${quoted(old)} cascade`);
    await client.query('commit');
    log?.info(
      { jobs: rows.length, queues: Object.fromEntries([...byQueue].map(([n, j]) => [n, j.length])) },
      'pg-boss jobs not yet done copied from the pg-boss 10 schema; old schema dropped',
    );
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  }
}
