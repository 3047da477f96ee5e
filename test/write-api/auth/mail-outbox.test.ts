import { afterAll, beforeAll, expect, it } from 'vitest';
import { createJobs } from '@guest/jobs';
import { mailboxTransport, startMailWorker } from '@guest/mail';
import { createDatabase } from '@guest/db';
import type { TestApp } from '../../support/test-app.ts';
import { mailsTo, register, startAuthApp, waitForMail } from './support.ts';

// The API process runs no mail worker here: it stands for a process that crashed (or whose
// worker is down) right after the write. The mail must still be delivered later.
let t: TestApp;
beforeAll(async () => {
  t = await startAuthApp({ MAIL_WORKER: false });
});
afterAll(async () => t?.close());

it('a mail written with its change survives until a worker delivers it (outbox + pg-boss job in one transaction)', async () => {
  const u = await register(t);

  const { rows: outbox } = await t.sql.query('select id, sent_at from mail_outbox where "to" = $1', [u.email]);
  expect(outbox).toHaveLength(1);
  expect(outbox[0].sent_at).toBeNull();
  const { rows: jobs } = await t.sql.query(
    `select state, data from ${t.config.JOBS_SCHEMA}.job where name = 'mail.deliver' and data->>'outbox_id' = $1`,
    [outbox[0].id],
  );
  expect(jobs).toEqual([{ state: 'created', data: { outbox_id: outbox[0].id } }]);
  // No worker runs: the job stays `created` (above), and nothing is delivered.
  expect(await mailsTo(t, u.email)).toEqual([]);

  // A worker process starts later, against the same database.
  const database = createDatabase(t.config.DATABASE_URL, 2);
  const worker = createJobs({ connectionString: t.config.DATABASE_URL, schema: t.config.JOBS_SCHEMA });
  try {
    await worker.start([]);
    await startMailWorker(worker, database.db, mailboxTransport(t.config.MAILBOX_DIR, t.config.MAIL_FROM));
    const { mail } = await waitForMail(t, u.email, /confirm your email/i);
    expect(mail.id).toBe(outbox[0].id);
    const { rows } = await t.sql.query('select sent_at, attempts from mail_outbox where id = $1', [outbox[0].id]);
    expect(rows[0].sent_at).not.toBeNull();
    expect(rows[0].attempts).toBe(1);
  } finally {
    await worker.stop();
    await database.close();
  }
});
