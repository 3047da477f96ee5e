import { eq, sql } from 'drizzle-orm';
import { schema } from '@guest/db';
import type { AuthContext } from '@guest/auth';
import { inTransaction } from '@guest/jobs';
import { enqueueMail } from '@guest/mail';
import type { WriteDeps } from '../deps.ts';
import { erasePersonalProfileData } from '../me/store.ts';
import { consumeEmailToken, issueEmailToken } from './email-tokens.ts';
import { deleteAccountMail } from './mails.ts';
import { announceClosed, closeSessions } from './sessions.ts';
import { addressLooksAutomated, checkCaptcha, hitSignal, type CaptchaPair } from './captcha-policy.ts';

const { accounts, sessions, emailTokens, mailOutbox } = schema;

type DeletionDeps = Pick<WriteDeps, 'config' | 'database' | 'redis' | 'storage' | 'jobs' | 'log' | 'clock'>;

/** Deleting an account: asked for while signed in, confirmed through an emailed link. */
export function createDeletion(deps: DeletionDeps) {
  const { config, database } = deps;
  return {
    /**
     * Mails a single-use link that confirms the deletion. An empty captcha pair passes until the
     * client looks like a robot (repeated requests, or failed logins from its address).
     */
    async request(auth: AuthContext, pair: CaptchaPair, address: string): Promise<void> {
      // Counted before the captcha decision and the mail, atomically, whatever the outcome (issue
      // 32): requests sent together see each other, so a burst mails no more links than requests
      // sent one by one.
      const requests = await hitSignal(deps.redis, 'delete-account', auth.accountId, 3600);
      const robot =
        requests > config.CAPTCHA_AFTER_DELETE_REQUESTS_PER_ACCOUNT || (await addressLooksAutomated(deps, address));
      await checkCaptcha(
        deps,
        robot,
        pair,
        { address, emailKey: null, accountId: auth.accountId, sessionId: auth.sessionId },
        { 'delete-account': 1 },
      );
      await inTransaction(database, async (dbTx, jobDb) => {
        const [account] = await dbTx
          .select({ email: accounts.email, firstName: accounts.firstName })
          .from(accounts)
          .where(eq(accounts.id, auth.accountId));
        if (!account?.email) return;
        const token = await issueEmailToken(dbTx, auth.accountId, 'delete_account', config.ACCOUNT_DELETE_TTL_MIN);
        await enqueueMail(dbTx, jobDb, deps.jobs, {
          to: account.email,
          accountId: auth.accountId,
          ...deleteAccountMail(config, account.firstName, token),
        });
      });
    },

    /**
     * Ends every session, marks the account `deleted` and erases its personal data; the account
     * id stays, detached from the person, for the records the law keeps (payments).
     */
    async confirm(token: string): Promise<void> {
      const { accountId, closed } = await inTransaction(database, async (dbTx) => {
        const id = await consumeEmailToken(dbTx, token, 'delete_account');
        const closedIds = await closeSessions(dbTx, id, 'all', 'account_deleted');
        await dbTx
          .update(accounts)
          .set({
            email: null,
            passwordHash: null,
            firstName: '',
            lastName: '',
            emailConfirmedAt: null,
            marketingOptIn: false,
            status: 'deleted',
            deletedAt: sql`now()`,
            updatedAt: sql`now()`,
          })
          .where(eq(accounts.id, id));
        await dbTx.update(sessions).set({ ip: '', userAgent: null }).where(eq(sessions.accountId, id));
        await dbTx.delete(emailTokens).where(eq(emailTokens.accountId, id));
        await dbTx.delete(mailOutbox).where(eq(mailOutbox.accountId, id));
        await erasePersonalProfileData(dbTx, id, deps.storage);
        return { accountId: id, closed: closedIds };
      });
      await announceClosed(deps, accountId, closed);
    },
  };
}

export type Deletion = ReturnType<typeof createDeletion>;
