import { eq, sql } from 'drizzle-orm';
import { schema, type Db, type DbTx } from '@guest/db';
import type { Jobs, JobDb } from '@guest/jobs';
import type { MailTransport } from './transport.ts';

const { mailOutbox } = schema;

export const MAIL_QUEUE = 'mail.deliver';

/** Retries with backoff for about a day of relay outage before a job is given up. */
export const mailQueueSpec = { name: MAIL_QUEUE, retryLimit: 12, retryDelay: 30, retryBackoff: true };

export interface MailJobData {
  outbox_id: string;
}

export interface NewMail {
  to: string;
  subject: string;
  text: string;
  accountId?: string | null;
}

/**
 * Writes the message to the outbox and queues its delivery in the caller's transaction: both
 * exist if and only if the change that caused the mail commits.
 */
export async function enqueueMail(dbTx: DbTx, jobDb: JobDb, jobs: Jobs, mail: NewMail): Promise<string> {
  const [row] = await dbTx
    .insert(mailOutbox)
    .values({ to: mail.to, subject: mail.subject, text: mail.text, accountId: mail.accountId ?? null })
    .returning({ id: mailOutbox.id });
  const id = row!.id;
  await jobs.send(MAIL_QUEUE, { outbox_id: id } satisfies MailJobData, { db: jobDb });
  return id;
}

/**
 * Delivers one outbox row. At-least-once: a crash after sending and before marking sends the
 * message again on retry, which the mailbox absorbs (same file) and SMTP marks (same Message-ID).
 */
export async function deliverOutboxMail(
  db: Db,
  transport: MailTransport,
  outboxId: string,
): Promise<'sent' | 'skipped'> {
  const [row] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, outboxId));
  if (!row || row.sentAt) return 'skipped';
  try {
    await transport.send({ id: row.id, to: row.to, subject: row.subject, text: row.text, createdAt: row.createdAt });
  } catch (err) {
    await db
      .update(mailOutbox)
      .set({
        attempts: sql`${mailOutbox.attempts} + 1`,
        lastError: String((err as Error)?.message ?? err).slice(0, 500),
      })
      .where(eq(mailOutbox.id, outboxId));
    throw err;
  }
  await db
    .update(mailOutbox)
    .set({ sentAt: sql`now()`, attempts: sql`${mailOutbox.attempts} + 1`, lastError: null })
    .where(eq(mailOutbox.id, outboxId));
  return 'sent';
}

/** Starts delivering queued mail in this process. */
export async function startMailWorker(jobs: Jobs, db: Db, transport: MailTransport): Promise<void> {
  await jobs.work<MailJobData>(MAIL_QUEUE, { batchSize: 5, pollingIntervalSeconds: 0.5 }, async (batch) => {
    for (const job of batch) await deliverOutboxMail(db, transport, job.data.outbox_id);
  });
}
