import type { z } from 'zod';
import { and, eq, ne } from 'drizzle-orm';
import { schema } from '@guest/db';
import { AppError } from '@guest/http-kit';
import { hashPassword } from '@guest/auth';
import type { WriteDeps } from '../deps.ts';
import type { LoginRequest } from './schemas.ts';
import { emailKey, normalizeEmail } from './email.ts';
import {
  findSessionByRefreshToken,
  openSession,
  slideSession,
  tokenPair,
  type ClientMeta,
  type TokenPair,
} from './sessions.ts';
import { checkCaptcha, clearSignal, hitSignal, releaseSignal } from './captcha-policy.ts';
import type { SignInPolicy } from './sign-in-policy.ts';
import { assertNotBackedOff, clearFailures, reserveAttempt } from './login-backoff.ts';
import { LOCKOUT_NOTICE_QUEUE, type LockoutNoticeJob } from './lockout-notice-job.ts';

const { accounts } = schema;

type SignInDeps = Pick<WriteDeps, 'config' | 'database' | 'redis' | 'clock' | 'rateLimiter' | 'jobs'>;

const invalidRefreshToken = () =>
  new AppError('unauthorized', 'This refresh token is not valid; sign in again.', {
    reason: 'invalid_refresh_token',
  });

/** Opening a session with email and password, and keeping it alive with its refresh token. */
export function createSignIn(deps: SignInDeps, policy: SignInPolicy) {
  const { config, database, redis } = deps;

  /** One notice per memory window; queued for known and unknown emails alike. */
  async function noticeOnce(email: string, ek: string, failures: number): Promise<void> {
    const first = await redis.set(`login-notice:${ek}`, '1', 'EX', config.LOGIN_FAILURE_MEMORY_S, 'NX');
    if (first) await deps.jobs.send(LOCKOUT_NOTICE_QUEUE, { email, failures } satisfies LockoutNoticeJob);
  }

  return {
    /**
     * Wrong email or password is 401 with the same answer and the same time for an unknown email;
     * after repeated failures per address or per email a captcha is demanded, and per email an
     * exponential back-off closes sign-in for a while whatever the address (429, Retry-After).
     * Every count is taken before the password is checked (issue 32): requests sent together
     * see each other, so a burst gets no more guesses than the same requests one by one.
     */
    async login(body: z.output<typeof LoginRequest>, client: ClientMeta): Promise<TokenPair> {
      await deps.rateLimiter.consume('login', client.address, config.RATE_LIMIT_LOGIN_PER_MIN, 60);
      const email = normalizeEmail(body.email);
      policy.assertAllowed(email);
      const ek = emailKey(email);
      // Before the captcha and the hash: a guess in back-off costs the server nothing and is not
      // even tried, so a right password is not revealed by a different answer.
      await assertNotBackedOff(redis, ek, deps.clock.now());
      // Counted as failures now, given back below unless the attempt is one (the email's counter is
      // cleared instead when the password is right).
      const window = config.CAPTCHA_FAILURE_WINDOW_S;
      const [byEmail, byAddress] = await Promise.all([
        hitSignal(redis, 'login-fail-email', ek, window),
        hitSignal(redis, 'login-fail-address', client.address, window),
      ]);
      let failed = false;
      let proven = false;
      try {
        // The counts include this attempt: a captcha is demanded once earlier ones reach the threshold.
        await checkCaptcha(
          deps,
          byEmail > config.CAPTCHA_AFTER_FAILED_LOGINS_PER_EMAIL ||
            byAddress > config.CAPTCHA_AFTER_FAILED_LOGINS_PER_ADDRESS,
          body,
          // Priced by the failures of this email and this address before this attempt (issue 32).
          { address: client.address, emailKey: ek, accountId: null, sessionId: null },
          { 'login-fail-email': 1, 'login-fail-address': 1 },
        );
        // The attempt's place in the back-off, taken atomically: past the allowance it is refused
        // (429) before any hash, whatever its password.
        const { failures } = await reserveAttempt(redis, config, ek, deps.clock.now());

        const [account] = await database.db
          .select({ id: accounts.id, passwordHash: accounts.passwordHash })
          .from(accounts)
          .where(and(eq(accounts.email, email), ne(accounts.status, 'deleted')));
        // Unknown emails are verified against a dummy hash: the same cost, so timing tells nothing.
        const ok = await policy.verifier.verify(account?.passwordHash, body.password);
        if (!account || !ok) {
          failed = true;
          if (failures >= config.LOGIN_LOCKOUT_NOTICE_AFTER) await noticeOnce(email, ek, failures);
          throw new AppError('unauthorized', 'Wrong email or password.', { reason: 'invalid_credentials' });
        }
        // The password is proven: the failures are forgiven, whether or not the account may sign in.
        proven = true;
        await Promise.all([clearSignal(redis, 'login-fail-email', ek), clearFailures(redis, ek)]);
        await policy.assertNotRestricted(account.id);
        if (policy.verifier.needsRehash(account.passwordHash!)) {
          const rehashed = await hashPassword(config, body.password);
          await database.db.update(accounts).set({ passwordHash: rehashed }).where(eq(accounts.id, account.id));
        }
        const session = await openSession(database.db, config, account.id, client, deps.clock.now());
        return tokenPair(deps, account.id, session.sessionId, session.refreshToken);
      } finally {
        if (!failed) {
          await Promise.all([
            proven ? undefined : releaseSignal(redis, 'login-fail-email', ek),
            releaseSignal(redis, 'login-fail-address', client.address),
          ]);
        }
      }
    },

    /**
     * New access tokens for the same refresh token, and a session extended (SESSION_IDLE_TTL_D idle, SESSION_ABSOLUTE_TTL_D at
     * most); a refused refresh (401, 403) extends nothing.
     */
    async refresh(refreshToken: string, client: ClientMeta): Promise<TokenPair> {
      const now = deps.clock.now();
      const session = await findSessionByRefreshToken(database, refreshToken, now);
      if (!session) throw invalidRefreshToken();
      policy.assertAllowed(session.email);
      await policy.assertNotRestricted(session.account_id);
      // Closed or expired between the two statements: refused like an unknown token.
      if (!(await slideSession(database, session.id, client, config.SESSION_IDLE_TTL_D, now))) {
        throw invalidRefreshToken();
      }
      return tokenPair(deps, session.account_id, session.id, refreshToken);
    },
  };
}

export type SignIn = ReturnType<typeof createSignIn>;
