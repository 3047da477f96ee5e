import { and, eq, ne } from 'drizzle-orm';
import { schema } from '@guest/db';
import { inTransaction } from '@guest/jobs';
import { enqueueMail } from '@guest/mail';
import type { WriteDeps } from '../deps.ts';
import { issueEmailToken } from './email-tokens.ts';
import { passwordResetMail } from './mails.ts';

const { accounts } = schema;

/**
 * Password-reset requests are answered 202 after one identical step for every email, known or
 * not (queue this job), so neither the answer nor its timing tells whether an account exists
 * (spec 5.10). The lookup, the token and the mail happen here, off the request path.
 */
export const PASSWORD_RESET_QUEUE = 'auth.password-reset';
export const passwordResetQueueSpec = { name: PASSWORD_RESET_QUEUE, retryLimit: 5, retryDelay: 10, retryBackoff: true };

export interface PasswordResetJob {
  email: string;
}

type ResetMailDeps = Pick<WriteDeps, 'config' | 'database' | 'jobs'>;

export async function mailPasswordReset({ config, database, jobs }: ResetMailDeps, email: string): Promise<void> {
  await inTransaction(database, async (dbTx, jobDb) => {
    const [account] = await dbTx
      .select({ id: accounts.id, firstName: accounts.firstName })
      .from(accounts)
      .where(and(eq(accounts.email, email), ne(accounts.status, 'deleted')));
    if (!account) return;
    const token = await issueEmailToken(dbTx, account.id, 'password_reset', config.PASSWORD_RESET_TTL_MIN);
    await enqueueMail(dbTx, jobDb, jobs, {
      to: email,
      accountId: account.id,
      ...passwordResetMail(config, account.firstName, token),
    });
  });
}

export async function startPasswordResetWorker(deps: ResetMailDeps): Promise<void> {
  await deps.jobs.work<PasswordResetJob>(
    PASSWORD_RESET_QUEUE,
    { batchSize: 5, pollingIntervalSeconds: 0.5 },
    async (batch) => {
      for (const job of batch) await mailPasswordReset(deps, job.data.email);
    },
  );
}
