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
import { bumpSignal, checkCaptcha, clearSignal, countSignal } from './captcha-policy.ts';
import type { SignInPolicy } from './sign-in-policy.ts';

const { accounts } = schema;

type SignInDeps = Pick<WriteDeps, 'config' | 'database' | 'redis' | 'clock' | 'rateLimiter'>;

const invalidRefreshToken = () =>
  new AppError('unauthorized', 'This refresh token is not valid; sign in again.', {
    reason: 'invalid_refresh_token',
  });

/** Opening a session with email and password, and keeping it alive with its refresh token. */
export function createSignIn(deps: SignInDeps, policy: SignInPolicy) {
  const { config, database, redis } = deps;
  return {
    /**
     * Wrong email or password is 401 with the same answer and the same time for an unknown email;
     * after repeated failures per address or per email a captcha is demanded.
     */
    async login(body: z.output<typeof LoginRequest>, client: ClientMeta): Promise<TokenPair> {
      await deps.rateLimiter.consume('login', client.ip, config.RATE_LIMIT_LOGIN_PER_MIN, 60);
      const email = normalizeEmail(body.email);
      policy.assertAllowed(email);
      const ek = emailKey(email);
      const [byEmail, byAddress] = await Promise.all([
        countSignal(redis, 'login-fail-email', ek),
        countSignal(redis, 'login-fail-address', client.ip),
      ]);
      await checkCaptcha(
        deps,
        byEmail >= config.CAPTCHA_AFTER_FAILED_LOGINS_PER_EMAIL ||
          byAddress >= config.CAPTCHA_AFTER_FAILED_LOGINS_PER_ADDRESS,
        body,
      );

      const [account] = await database.db
        .select({ id: accounts.id, passwordHash: accounts.passwordHash })
        .from(accounts)
        .where(and(eq(accounts.email, email), ne(accounts.status, 'deleted')));
      // Unknown emails are verified against a dummy hash: the same cost, so timing tells nothing.
      const ok = await policy.verifier.verify(account?.passwordHash, body.password);
      if (!account || !ok) {
        const window = config.CAPTCHA_FAILURE_WINDOW_S;
        await Promise.all([
          bumpSignal(redis, 'login-fail-email', ek, window),
          bumpSignal(redis, 'login-fail-address', client.ip, window),
        ]);
        throw new AppError('unauthorized', 'Wrong email or password.', { reason: 'invalid_credentials' });
      }
      await policy.assertNotRestricted(account.id);
      await clearSignal(redis, 'login-fail-email', ek);
      if (policy.verifier.needsRehash(account.passwordHash!)) {
        const rehashed = await hashPassword(config, body.password);
        await database.db.update(accounts).set({ passwordHash: rehashed }).where(eq(accounts.id, account.id));
      }
      const session = await openSession(database.db, config, account.id, client);
      return tokenPair(deps, account.id, session.sessionId, session.refreshToken);
    },

    /**
     * New access tokens for the same refresh token, and a session extended (30 days idle, 180 at
     * most); a refused refresh (401, 403) extends nothing.
     */
    async refresh(refreshToken: string, client: ClientMeta): Promise<TokenPair> {
      const session = await findSessionByRefreshToken(database, refreshToken);
      if (!session) throw invalidRefreshToken();
      policy.assertAllowed(session.email);
      await policy.assertNotRestricted(session.account_id);
      // Closed or expired between the two statements: refused like an unknown token.
      if (!(await slideSession(database, session.id, client, config.SESSION_IDLE_TTL_D))) throw invalidRefreshToken();
      return tokenPair(deps, session.account_id, session.id, refreshToken);
    },
  };
}

export type SignIn = ReturnType<typeof createSignIn>;
