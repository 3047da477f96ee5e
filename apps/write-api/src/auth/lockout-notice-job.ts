import { and, eq, ne } from 'drizzle-orm';
import { schema } from '@guest/db';
import { inTransaction } from '@guest/jobs';
import { enqueueMail } from '@guest/mail';
import type { WriteDeps } from '../deps.ts';
import { loginLockoutMail } from './mails.ts';

const { accounts } = schema;

/**
 * The owner of an email under a sustained guessing attack is told once per
 * LOGIN_FAILURE_MEMORY_S. Queued the same way for every email, known or not, so the request
 * takes the same path either way; the lookup and the mail (through the outbox) happen here.
 */
export const LOCKOUT_NOTICE_QUEUE = 'auth.login-lockout-notice';
export const lockoutNoticeQueueSpec = {
  name: LOCKOUT_NOTICE_QUEUE,
  retryLimit: 5,
  retryDelay: 10,
  retryBackoff: true,
};

export interface LockoutNoticeJob {
  email: string;
  failures: number;
}

type NoticeDeps = Pick<WriteDeps, 'config' | 'database' | 'jobs'>;

export async function mailLockoutNotice({ config, database, jobs }: NoticeDeps, job: LockoutNoticeJob): Promise<void> {
  await inTransaction(database, async (dbTx, jobDb) => {
    const [account] = await dbTx
      .select({ id: accounts.id, firstName: accounts.firstName })
      .from(accounts)
      .where(and(eq(accounts.email, job.email), ne(accounts.status, 'deleted')));
    if (!account) return;
    await enqueueMail(dbTx, jobDb, jobs, {
      to: job.email,
      accountId: account.id,
      ...loginLockoutMail(config, account.firstName, job.failures),
    });
  });
}

export async function startLockoutNoticeWorker(deps: NoticeDeps): Promise<void> {
  await deps.jobs.work<LockoutNoticeJob>(
    LOCKOUT_NOTICE_QUEUE,
    { batchSize: 5, pollingIntervalSeconds: 0.5 },
    async (batch) => {
      for (const job of batch) await mailLockoutNotice(deps, job.data);
    },
  );
}
