import type { z } from 'zod';
import { eq, sql } from 'drizzle-orm';
import { schema } from '@guest/db';
import { errors } from '@guest/http-kit';
import { hashPassword, PASSWORD_PROBLEM_MESSAGES, type AuthContext } from '@guest/auth';
import { inTransaction } from '@guest/jobs';
import type { WriteDeps } from '../deps.ts';
import type { PasswordResetRequest } from './schemas.ts';
import { emailKey, normalizeEmail } from './email.ts';
import { consumeEmailToken, invalidToken, peekEmailToken } from './email-tokens.ts';
import { announceClosed, closeSessions } from './sessions.ts';
import { checkCaptcha, hitSignal } from './captcha-policy.ts';
import { clearFailures } from './login-backoff.ts';
import { PASSWORD_RESET_QUEUE, type PasswordResetJob } from './password-reset-job.ts';
import type { SignInPolicy } from './sign-in-policy.ts';

const { accounts } = schema;

type PasswordDeps = Pick<
  WriteDeps,
  'config' | 'database' | 'redis' | 'jobs' | 'rateLimiter' | 'log' | 'work' | 'clock'
>;

/** Changing a known password, and resetting a forgotten one through an emailed link. */
export function createPasswords(deps: PasswordDeps, policy: SignInPolicy) {
  const { config, database } = deps;
  return {
    /**
     * Keeps the caller's session and ends all others (spec 5.11). Guessing the current password
     * through this is bounded like login.
     */
    async change(auth: AuthContext, currentPassword: string, newPassword: string): Promise<void> {
      await deps.rateLimiter.consume(
        'password-change',
        auth.accountId,
        config.RATE_LIMIT_PASSWORD_CHANGE_PER_HOUR,
        3600,
      );
      const [account] = await database.db
        .select({
          email: accounts.email,
          passwordHash: accounts.passwordHash,
          firstName: accounts.firstName,
          lastName: accounts.lastName,
        })
        .from(accounts)
        .where(eq(accounts.id, auth.accountId));
      if (!(await policy.verifier.verify(account?.passwordHash, currentPassword))) {
        throw errors.validation('current_password', 'The current password is wrong.', { reason: 'wrong_password' });
      }
      const problem = await deps.work.passwords.run({
        kind: 'password',
        password: newPassword,
        email: account?.email ?? null,
        personal: [account?.firstName ?? '', account?.lastName ?? ''],
      });
      if (problem) throw errors.validation('new_password', PASSWORD_PROBLEM_MESSAGES[problem], { reason: problem });
      if (newPassword === currentPassword) {
        throw errors.validation('new_password', 'The new password is the same as the current one.', {
          reason: 'same_as_current',
        });
      }
      const passwordHash = await hashPassword(config, newPassword);
      const closed = await inTransaction(database, async (dbTx) => {
        await dbTx
          .update(accounts)
          .set({ passwordHash, updatedAt: sql`now()` })
          .where(eq(accounts.id, auth.accountId));
        return closeSessions(dbTx, auth.accountId, { allExcept: auth.sessionId }, 'password_changed');
      });
      await announceClosed(deps, auth.accountId, closed);
    },

    /**
     * One identical step for every email, known or not (spec 5.10): the lookup, the token and the
     * mail happen in a job. At most RATE_LIMIT_PASSWORD_RESET_PER_HOUR mails go to one address;
     * further requests send nothing. A burst from one network address demands a captcha.
     */
    async requestReset(body: z.output<typeof PasswordResetRequest>, address: string): Promise<void> {
      // Counted before anything else, atomically, whatever the outcome (issue 32): requests sent
      // together see each other, so a burst gets past the captcha no more often than requests sent
      // one by one.
      const burst = await hitSignal(deps.redis, 'reset-address', address, 3600);
      await checkCaptcha(
        deps,
        burst > config.CAPTCHA_AFTER_RESET_REQUESTS_PER_ADDRESS,
        body,
        { address, emailKey: emailKey(body.email), accountId: null, sessionId: null },
        { 'reset-address': 1 },
      );

      const email = normalizeEmail(body.email);
      // Counted for every address, known or not, so the limit itself reveals nothing.
      const perEmail = await deps.rateLimiter.hit(
        'password-reset',
        emailKey(email),
        config.RATE_LIMIT_PASSWORD_RESET_PER_HOUR,
        3600,
      );
      if (perEmail.allowed) await deps.jobs.send(PASSWORD_RESET_QUEUE, { email } satisfies PasswordResetJob);
    },

    /**
     * Sets the new password, ends every session (spec 5.11) and confirms the email (the link
     * proved it). A weak password leaves the token usable.
     */
    async confirmReset(token: string, password: string): Promise<void> {
      const accountId = await peekEmailToken(database.db, token, 'password_reset');
      if (!accountId) throw invalidToken();
      const [account] = await database.db
        .select({ email: accounts.email, firstName: accounts.firstName, lastName: accounts.lastName })
        .from(accounts)
        .where(eq(accounts.id, accountId));
      const problem = await deps.work.passwords.run({
        kind: 'password',
        password,
        email: account?.email ?? null,
        personal: [account?.firstName ?? '', account?.lastName ?? ''],
      });
      if (problem) throw errors.validation('password', PASSWORD_PROBLEM_MESSAGES[problem], { reason: problem });
      const passwordHash = await hashPassword(config, password);
      const closed = await inTransaction(database, async (dbTx) => {
        const id = await consumeEmailToken(dbTx, token, 'password_reset');
        await dbTx
          .update(accounts)
          .set({
            passwordHash,
            emailConfirmedAt: sql`coalesce(${accounts.emailConfirmedAt}, now())`,
            updatedAt: sql`now()`,
          })
          .where(eq(accounts.id, id));
        return closeSessions(dbTx, id, 'all', 'password_reset');
      });
      await announceClosed(deps, accountId, closed);
      // The reset proved the mailbox: a back-off that an attacker keeps up ends for the owner.
      if (account?.email) await clearFailures(deps.redis, emailKey(account.email));
    },
  };
}

export type Passwords = ReturnType<typeof createPasswords>;
