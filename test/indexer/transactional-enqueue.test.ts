import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database } from '@guest/db';
import { createJobs, inTransaction, sendInTransaction, type Jobs } from '@guest/jobs';
import { startTestRuntime, type TestRuntime } from '../support/test-app.ts';

const QUEUE = 'enqueue.probe';

/**
 * The outbox's guarantee, on pg-boss 12: a job sent in a transaction exists exactly when that
 * transaction commits, and a queue that does not exist yet makes the send a no-op, never an
 * error that would abort the caller's write.
 */
describe('transactional enqueue (sendInTransaction, Jobs.send with { db })', () => {
  let t: TestRuntime;
  let jobs: Jobs;
  let database: Database;
  const jobsOf = async (name: string) =>
    (await t.sql.query(`select id, data from ${t.config.JOBS_SCHEMA}.job where name = $1 order by created_on`, [name]))
      .rows as Array<{ id: string; data: unknown }>;
  const marker = async (dbTx: Parameters<Parameters<typeof inTransaction>[1]>[0], label: string) => {
    await dbTx.execute(`insert into mail_outbox ("to", subject, text) values ('${label}@example.test', 'probe', '-')`);
  };
  const markers = async (label: string) =>
    (await t.sql.query(`select 1 from mail_outbox where "to" = $1`, [`${label}@example.test`])).rowCount;

  beforeAll(async () => {
    t = await startTestRuntime();
    database = t.runtime.database;
  });
  afterAll(async () => {
    await jobs?.stop();
    await t?.close();
  });

  it('rule: before pg-boss has made its schema, a send queues nothing and the write commits', async () => {
    const { rows } = await t.sql.query('select to_regclass($1) as found', [`${t.config.JOBS_SCHEMA}.queue`]);
    expect(rows[0].found, 'this test starts on a database without a pg-boss schema').toBeNull();
    const id = await inTransaction(database, async (dbTx, jobDb) => {
      await marker(dbTx, 'no-schema');
      return sendInTransaction(database, jobDb, QUEUE, { n: 0 });
    });
    expect(id).toBeNull();
    expect(await markers('no-schema')).toBe(1);
  });

  it('rule: a missing queue queues nothing and the write commits (no "Queue … does not exist")', async () => {
    jobs = createJobs({ connectionString: t.config.DATABASE_URL, schema: t.config.JOBS_SCHEMA });
    await jobs.start([{ name: QUEUE }]);
    const id = await inTransaction(database, async (dbTx, jobDb) => {
      await marker(dbTx, 'no-queue');
      return sendInTransaction(database, jobDb, 'enqueue.absent', { n: 1 });
    });
    expect(id).toBeNull();
    expect(await markers('no-queue')).toBe(1);
    expect(await jobsOf('enqueue.absent')).toEqual([]);
  });

  it('rule: a job sent in a transaction that rolls back does not exist', async () => {
    const failed = inTransaction(database, async (dbTx, jobDb) => {
      await marker(dbTx, 'rolled-back');
      expect(await sendInTransaction(database, jobDb, QUEUE, { n: 2 })).toEqual(expect.any(String));
      expect(await jobs.send(QUEUE, { n: 3 }, { db: jobDb })).toEqual(expect.any(String));
      throw new Error('the write fails after the sends');
    });
    await expect(failed).rejects.toThrow('the write fails after the sends');
    expect(await markers('rolled-back')).toBe(0);
    expect(await jobsOf(QUEUE)).toEqual([]);
  });

  it('rule: a job sent in a transaction exists once it commits, not before', async () => {
    const sent = await inTransaction(database, async (dbTx, jobDb) => {
      await marker(dbTx, 'committed');
      const a = await sendInTransaction(database, jobDb, QUEUE, { n: 4 });
      const b = await jobs.send(QUEUE, { n: 5 }, { db: jobDb });
      expect(await jobsOf(QUEUE), 'not visible outside the transaction before it commits').toEqual([]);
      return [a, b];
    });
    expect(await jobsOf(QUEUE)).toEqual([
      { id: sent[0], data: { n: 4 } },
      { id: sent[1], data: { n: 5 } },
    ]);
  });

  it('rule: a send needs no connection but the caller’s (a pool of one, held by the transaction)', async () => {
    const single = createDatabase(t.config.DATABASE_URL, 1, {
      jobsSchema: t.config.JOBS_SCHEMA,
      connectTimeoutMs: 5_000,
    });
    try {
      // A new pool gets a sender of its own: its start and queue look-up run here too.
      const id = await inTransaction(single, (_dbTx, jobDb) => sendInTransaction(single, jobDb, QUEUE, { n: 6 }));
      expect((await jobsOf(QUEUE)).map((j) => j.id)).toContain(id);
    } finally {
      await single.close();
    }
  });
});
