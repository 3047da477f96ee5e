import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import PgBossV10 from 'pg-boss-v10';
import { PgBoss } from 'pg-boss';
import { createJobs, upgradeFromV10, type Jobs } from '@guest/jobs';
import { MAIL_QUEUE, mailboxTransport, mailQueueSpec, startMailWorker, type MailboxMessage } from '@guest/mail';
import { repoRoot } from '@guest/config';
import { startTestRuntime, type TestRuntime } from '../support/test-app.ts';
import { eventually } from '../support/eventually.ts';
import { jobsCompleted } from '../support/jobs.ts';

/** The schema version the installed pg-boss 12 creates (its generated manifest). */
const v12SchemaVersion = async () =>
  (
    JSON.parse(await readFile(path.join(repoRoot, 'node_modules/pg-boss/dist/schema.json'), 'utf8')) as {
      version: number;
    }
  ).version;

const PROBE = 'upgrade.probe';

/** A pg-boss 10 schema made by the real v10, holding one created job of `PROBE` (retry limit 3); its id. */
async function v10WithOneJob(t: TestRuntime, schema: string): Promise<string> {
  const v10 = new PgBossV10({ connectionString: t.config.DATABASE_URL, schema, max: 2 });
  v10.on('error', () => {});
  await v10.start();
  try {
    await v10.createQueue(PROBE, { name: PROBE, retryLimit: 3 });
    return (await v10.send(PROBE, { kept: true }))!;
  } finally {
    await v10.stop({ graceful: false, wait: true });
  }
}

/**
 * A database made by the real pg-boss 10.4.2 (installed as `pg-boss-v10`), with jobs in every
 * state, is started on by this code, which runs pg-boss 12: nothing not yet done may be lost,
 * nothing done may run again.
 */
describe('pg-boss 10 → 12: a v10 database is upgraded at start', () => {
  let t: TestRuntime;
  const started: Jobs[] = [];
  const logs: string[] = [];
  const log = { info: (_: object, msg: string) => logs.push(msg), warn: (_: object, msg: string) => logs.push(msg) };
  const ids = { pending: [] as string[], completed: '', probe: '', active: '', outbox: {} as Record<string, string> };
  const schema = () => t.config.JOBS_SCHEMA;
  const mailbox = async (): Promise<MailboxMessage[]> => {
    const names = await readdir(t.config.MAILBOX_DIR).catch(() => [] as string[]);
    return Promise.all(
      names
        .filter((n) => n.endsWith('.json'))
        .map(async (n) => JSON.parse(await readFile(path.join(t.config.MAILBOX_DIR, n), 'utf8')) as MailboxMessage),
    );
  };
  const outboxRow = async (to: string) =>
    (
      await t.sql.query<{ id: string }>(
        `insert into mail_outbox ("to", subject, text) values ($1, 'v10 mail', 'sent before the upgrade') returning id`,
        [to],
      )
    ).rows[0]!.id;

  beforeAll(async () => {
    t = await startTestRuntime();
    const v10 = new PgBossV10({ connectionString: t.config.DATABASE_URL, schema: schema(), max: 2 });
    v10.on('error', () => {});
    await v10.start();
    try {
      await v10.createQueue(MAIL_QUEUE, mailQueueSpec);
      await v10.createQueue(PROBE, { name: PROBE, policy: 'standard', retryLimit: 7, expireInSeconds: 120 });
      await v10.schedule(PROBE, '0 3 * * *', { nightly: true }, { tz: 'Europe/Paris' });
      for (const to of ['pending-1@example.test', 'pending-2@example.test', 'completed@example.test']) {
        ids.outbox[to] = await outboxRow(to);
      }
      // Done before the upgrade: its outbox row is left unsent on purpose, so a re-run would show.
      ids.completed = (await v10.send(MAIL_QUEUE, { outbox_id: ids.outbox['completed@example.test'] }))!;
      const [fetched] = await v10.fetch(MAIL_QUEUE);
      expect(fetched?.id).toBe(ids.completed);
      await v10.complete(MAIL_QUEUE, ids.completed);
      for (const to of ['pending-1@example.test', 'pending-2@example.test']) {
        ids.pending.push((await v10.send(MAIL_QUEUE, { outbox_id: ids.outbox[to] }))!);
      }
      // Fetched by a worker that then died: active when the upgrade runs.
      ids.active = (await v10.send(PROBE, { n: 1 }, { priority: 3 }))!;
      const [active] = await v10.fetch(PROBE);
      expect(active?.id).toBe(ids.active);
      ids.probe = (await v10.send(
        PROBE,
        { n: 2 },
        {
          priority: 5,
          singletonKey: 'probe-key',
          startAfter: new Date(Date.now() + 3_600_000),
          expireInSeconds: 300,
          retryLimit: 4,
          retryDelay: 9,
          retryBackoff: true,
        },
      ))!;
    } finally {
      await v10.stop({ graceful: false, wait: true });
    }
    const { rows } = await t.sql.query(`select version from ${schema()}.version`);
    expect(rows, 'the fixture is a real pg-boss 10 schema').toEqual([{ version: 24 }]);
  });

  afterAll(async () => {
    for (const jobs of started) await jobs.stop();
    await t?.close();
  });

  it('rule: two processes starting together upgrade once, and both start', async () => {
    const a = createJobs({ connectionString: t.config.DATABASE_URL, schema: schema(), log });
    const b = createJobs({ connectionString: t.config.DATABASE_URL, schema: schema(), log });
    started.push(a, b);
    await Promise.all([a.start([mailQueueSpec]), b.start([mailQueueSpec])]);

    const { rows: version } = await t.sql.query(`select version from ${schema()}.version`);
    expect(version).toEqual([{ version: await v12SchemaVersion() }]);
    const { rows: left } = await t.sql.query(`select nspname from pg_namespace where nspname like $1`, [
      `${schema()}_v10%`,
    ]);
    expect(left, 'the renamed v10 schema is dropped once its jobs are copied').toEqual([]);
    expect(
      logs.filter((l) => /moving it aside/.test(l)),
      logs.join('\n'),
    ).toHaveLength(1);
  });

  it('rule: jobs not yet done are kept with their data and options; done ones stay behind', async () => {
    const { rows } = await t.sql.query(
      `select id, name, state, data, priority, singleton_key, retry_limit, retry_delay, retry_backoff,
              expire_seconds, start_after > now() + interval '50 minutes' as later
         from ${schema()}.job where name = any($1) order by name, priority`,
      [[MAIL_QUEUE, PROBE]],
    );
    const byId = Object.fromEntries(rows.map((r: { id: string }) => [r.id, r]));
    expect(byId[ids.completed], 'a completed job is not copied').toBeUndefined();
    for (const [i, id] of ids.pending.entries()) {
      const to = `pending-${i + 1}@example.test`;
      expect(byId[id]).toMatchObject({ name: MAIL_QUEUE, state: 'created', data: { outbox_id: ids.outbox[to] } });
      expect(byId[id]).toMatchObject({ retry_limit: 12, retry_delay: 30, retry_backoff: true });
    }
    expect(byId[ids.active], 'an active job (its worker gone) is queued again').toMatchObject({
      state: 'created',
      data: { n: 1 },
      priority: 3,
      retry_limit: 7,
      expire_seconds: 120,
    });
    expect(byId[ids.probe]).toMatchObject({
      state: 'created',
      data: { n: 2 },
      priority: 5,
      singleton_key: 'probe-key',
      retry_limit: 4,
      retry_delay: 9,
      retry_backoff: true,
      expire_seconds: 300,
      later: true,
    });
    expect(rows).toHaveLength(4);
  });

  it('rule: queues and cron schedules are re-created with their settings', async () => {
    const boss = started[0]!.boss;
    expect(await boss.getQueue(PROBE)).toMatchObject({ policy: 'standard', retryLimit: 7, expireInSeconds: 120 });
    expect(await boss.getQueue(MAIL_QUEUE)).toMatchObject({ retryLimit: 12, retryDelay: 30, retryBackoff: true });
    const schedules = await boss.getSchedules(PROBE);
    expect(schedules).toHaveLength(1);
    expect(schedules[0]).toMatchObject({
      name: PROBE,
      cron: '0 3 * * *',
      timezone: 'Europe/Paris',
      data: { nightly: true },
    });
  });

  it('rule: the real mail worker delivers the copied jobs, and the completed one is not run again', async () => {
    await startMailWorker(
      started[0]!,
      t.runtime.database.db,
      mailboxTransport(t.config.MAILBOX_DIR, t.config.MAIL_FROM),
    );
    await jobsCompleted(t, [MAIL_QUEUE]);
    const delivered = (await mailbox()).map((m) => m.to).sort();
    expect(delivered).toEqual(['pending-1@example.test', 'pending-2@example.test']);
    const { rows } = await t.sql.query('select sent_at from mail_outbox where id = $1', [
      ids.outbox['completed@example.test'],
    ]);
    expect(rows[0].sent_at, 'the job completed under v10 did not run again').toBeNull();
  });

  it('rule: a start on an upgraded database changes nothing', async () => {
    const before = (await t.sql.query(`select id, state from ${schema()}.job order by id`)).rows;
    expect(await upgradeFromV10({ connectionString: t.config.DATABASE_URL, schema: schema(), log })).toBe('none');
    const again = createJobs({ connectionString: t.config.DATABASE_URL, schema: schema(), log });
    started.push(again);
    await again.start([mailQueueSpec]);
    expect((await t.sql.query(`select id, state from ${schema()}.job order by id`)).rows).toEqual(before);
  });
});

describe('pg-boss 10 → 12: an upgrade interrupted half-way resumes at the next start', () => {
  let t: TestRuntime;
  const schema = 'jobs_resume';
  const jobs: Jobs[] = [];
  afterAll(async () => {
    for (const j of jobs) await j.stop();
    await t?.close();
  });

  it('rule: a crash after the v10 schema was moved aside (and 12 created its own) loses no job', async () => {
    t = await startTestRuntime();
    const id = await v10WithOneJob(t, schema);
    // The state a crash leaves between step 2 and step 3: the real v10 schema moved aside
    // (step 1), and pg-boss 12's fresh schema under the old name (step 2), no job copied yet.
    await t.sql.query(`alter schema ${schema} rename to ${schema}_v10`);
    const fresh = new PgBoss({ connectionString: t.config.DATABASE_URL, schema, max: 1, supervise: false });
    await fresh.start();
    await fresh.stop({ graceful: false });

    const resumed = createJobs({ connectionString: t.config.DATABASE_URL, schema });
    jobs.push(resumed);
    await resumed.start([]);
    const { rows } = await t.sql.query(`select id, state, data, retry_limit from ${schema}.job where name = $1`, [
      PROBE,
    ]);
    expect(rows).toEqual([{ id, state: 'created', data: { kept: true }, retry_limit: 3 }]);
    const { rows: left } = await t.sql.query(`select 1 from pg_namespace where nspname = $1`, [`${schema}_v10`]);
    expect(left).toEqual([]);
  });
});

describe('pg-boss 10 → 12: a schema moved aside while a start looks at it', () => {
  let t: TestRuntime;
  const schema = 'jobs_moving';
  afterAll(async () => {
    await t?.close();
  });

  it('rule: a start that sees the v10 schema and then finds it renamed waits for the lock and upgrades, instead of failing', async () => {
    t = await startTestRuntime();
    const id = await v10WithOneJob(t, schema);

    // Another process moving the schema aside, caught between this start's two reads: the rename
    // is not committed when the start checks that `<schema>.version` exists, and is when it reads it.
    const other = await t.sql.connect();
    try {
      await other.query('begin');
      await other.query(`lock table ${schema}.version in access exclusive mode`);
      await other.query(`alter schema ${schema} rename to ${schema}_v10`);
      const upgrade = upgradeFromV10({ connectionString: t.config.DATABASE_URL, schema });
      upgrade.catch(() => {});
      await eventually(
        'the start to wait for the lock on the version table',
        async () =>
          (
            await t.sql.query(
              `select 1 from pg_stat_activity where application_name = 'guest-jobs-upgrade' and wait_event_type = 'Lock'`,
            )
          ).rows.length,
        { intervalMs: 10 },
      );
      await other.query('commit');
      await expect(upgrade).resolves.toBe('upgraded');
    } finally {
      other.release();
    }
    const { rows } = await t.sql.query(`select id, state, data, retry_limit from ${schema}.job where name = $1`, [
      PROBE,
    ]);
    expect(rows).toEqual([{ id, state: 'created', data: { kept: true }, retry_limit: 3 }]);
    const { rows: left } = await t.sql.query(`select 1 from pg_namespace where nspname = $1`, [`${schema}_v10`]);
    expect(left).toEqual([]);
  });
});
