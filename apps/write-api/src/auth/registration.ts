import type { z } from 'zod';
import { and, eq, ne, sql } from 'drizzle-orm';
import { schema, type DbTx } from '@guest/db';
import { errors } from '@guest/http-kit';
import { hashPassword, PASSWORD_PROBLEM_MESSAGES, type AuthContext } from '@guest/auth';
import { inTransaction, type JobDb } from '@guest/jobs';
import { enqueueMail } from '@guest/mail';
import type { WriteDeps } from '../deps.ts';
import { Email, type RegisterRequest } from './schemas.ts';
import { emailKey, normalizeEmail } from './email.ts';
import { openSession, tokenPair, type ClientMeta, type TokenPair } from './sessions.ts';
import { consumeEmailToken, issueEmailToken } from './email-tokens.ts';
import { confirmEmailMail } from './mails.ts';
import { checkCaptcha, hitSignal } from './captcha-policy.ts';
import type { SignInPolicy } from './sign-in-policy.ts';

const { accounts } = schema;

type RegistrationDeps = Pick<WriteDeps, 'config' | 'database' | 'redis' | 'clock' | 'jobs' | 'rateLimiter' | 'work'>;

const emailTaken = () =>
  errors.conflict('email_taken', 'An account with this email exists; sign in or reset the password.', {
    field: 'email',
  });

/** Creating an account and proving its email address. */
export function createRegistration(deps: RegistrationDeps, policy: SignInPolicy) {
  const { config, database, jobs } = deps;

  /** Mails a fresh confirmation link in the caller's transaction; earlier links stop working. */
  async function mailConfirmation(
    dbTx: DbTx,
    jobDb: JobDb,
    account: { id: string; email: string; firstName: string },
  ): Promise<void> {
    const token = await issueEmailToken(dbTx, account.id, 'confirm_email', config.EMAIL_CONFIRM_TTL_H * 60);
    await enqueueMail(dbTx, jobDb, jobs, {
      to: account.email,
      accountId: account.id,
      ...confirmEmailMail(config, account.firstName, token),
    });
  }

  return {
    /** Whether the email can still be registered, under a strict per-address limit. */
    async isEmailAvailable(rawEmail: string, address: string): Promise<boolean> {
      await deps.rateLimiter.consume('email-availability', address, config.RATE_LIMIT_EMAIL_AVAILABILITY_PER_MIN, 60);
      if (!Email.safeParse(rawEmail.trim()).success) {
        throw errors.validation('email', 'Not an email address.', { reason: 'invalid_email' });
      }
      const [taken] = await database.db
        .select({ id: accounts.id })
        .from(accounts)
        .where(and(eq(accounts.email, normalizeEmail(rawEmail)), ne(accounts.status, 'deleted')))
        .limit(1);
      return !taken;
    },

    /** Creates the account, opens its first session and mails the confirmation link. */
    async register(body: z.output<typeof RegisterRequest>, client: ClientMeta): Promise<TokenPair> {
      // Every attempt from the address counts toward the burst, whatever its outcome (taken email,
      // broken rule, success), and before any work: probing which emails exist, or making the
      // server hash passwords, is not free beyond the burst.
      const attempts = await hitSignal(deps.redis, 'register-address', client.address, 3600);
      await checkCaptcha(
        deps,
        attempts > config.CAPTCHA_AFTER_REGISTRATIONS_PER_ADDRESS,
        body,
        { address: client.address, emailKey: emailKey(body.email), accountId: null, sessionId: null },
        { 'register-address': 1 },
      );

      if (!body.accept_terms) {
        throw errors.validation('accept_terms', 'Registration needs consent to the terms.', { reason: 'must_be_true' });
      }
      const email = normalizeEmail(body.email);
      policy.assertAllowed(email);
      // zxcvbn takes up to a few hundred ms on a long password: in the work pool, off the event loop.
      const problem = await deps.work.passwords.run({
        kind: 'password',
        password: body.password,
        email,
        personal: [body.first_name, body.last_name],
      });
      if (problem) throw errors.validation('password', PASSWORD_PROBLEM_MESSAGES[problem], { reason: problem });

      // A taken email is answered before the expensive hash; the insert below still settles races.
      const [existing] = await database.db
        .select({ id: accounts.id })
        .from(accounts)
        .where(eq(accounts.email, email))
        .limit(1);
      if (existing) throw emailTaken();

      const passwordHash = await hashPassword(config, body.password);
      return inTransaction(database, async (dbTx, jobDb) => {
        const [account] = await dbTx
          .insert(accounts)
          .values({
            email,
            passwordHash,
            firstName: body.first_name,
            lastName: body.last_name,
            marketingOptIn: body.marketing_opt_in,
            termsAcceptedAt: deps.clock.now(),
          })
          .onConflictDoNothing({ target: accounts.email })
          .returning({ id: accounts.id });
        if (!account) throw emailTaken();
        const session = await openSession(dbTx, config, account.id, client, deps.clock.now());
        await mailConfirmation(dbTx, jobDb, { id: account.id, email, firstName: body.first_name });
        return tokenPair(deps, account.id, session.sessionId, session.refreshToken);
      });
    },

    /** Uses the emailed token up and marks the address confirmed. */
    async confirmEmail(token: string): Promise<void> {
      await inTransaction(database, async (dbTx) => {
        const accountId = await consumeEmailToken(dbTx, token, 'confirm_email');
        await dbTx
          .update(accounts)
          .set({ emailConfirmedAt: sql`coalesce(${accounts.emailConfirmedAt}, now())`, updatedAt: sql`now()` })
          .where(eq(accounts.id, accountId));
      });
    },

    /**
     * Mails the confirmation link again (at most RATE_LIMIT_RESEND_CONFIRMATION_PER_HOUR per
     * account); nothing to do when the email is already confirmed.
     */
    async resendConfirmation(auth: AuthContext): Promise<'already_confirmed' | 'sent'> {
      if (auth.emailConfirmed) return 'already_confirmed';
      await deps.rateLimiter.consume(
        'resend-confirmation',
        auth.accountId,
        config.RATE_LIMIT_RESEND_CONFIRMATION_PER_HOUR,
        3600,
      );
      await inTransaction(database, async (dbTx, jobDb) => {
        const [account] = await dbTx
          .select({ email: accounts.email, firstName: accounts.firstName })
          .from(accounts)
          .where(eq(accounts.id, auth.accountId));
        if (!account?.email) return;
        await mailConfirmation(dbTx, jobDb, { id: auth.accountId, email: account.email, firstName: account.firstName });
      });
      return 'sent';
    },
  };
}

export type Registration = ReturnType<typeof createRegistration>;
