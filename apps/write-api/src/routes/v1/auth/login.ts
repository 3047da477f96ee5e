import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { and, eq, ne } from 'drizzle-orm';
import { schema } from '@guest/db';
import { AppError, describeCodes, errorResponses } from '@guest/http-kit';
import { hashPassword, isAllowedToSignIn } from '@guest/auth';
import { LoginRequest, TokenPairResponse } from '../../../accounts/schemas.ts';
import { emailKey, normalizeEmail } from '../../../accounts/email.ts';
import { clientMeta, openSession, tokenPair } from '../../../accounts/sessions.ts';
import { bumpSignal, checkCaptcha, clearSignal, countSignal } from '../../../accounts/captcha-policy.ts';
import { activeRestrictions } from '../../../accounts/restrictions.ts';
import type { RouteOptions } from '../../../accounts/context.ts';

const { accounts } = schema;

export default async function login(app: FastifyInstance, { ctx }: RouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/auth/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with email and password',
        description:
          'Issues a token pair for a new session. Wrong email or password is 401 `unauthorized` (the same answer and the same time ' +
          'for an unknown email). After repeated failures per address or per email a captcha is demanded. ' +
          `Errors: ${describeCodes('unauthorized', 'forbidden', 'account_restricted', 'captcha_required', 'schema_invalid', 'rate_limited')}.`,
        body: LoginRequest,
        response: { 200: TokenPairResponse, ...errorResponses(400, 401, 403, 422, 429, 500) },
      },
    },
    async (req, reply) => {
      // Credentials must never be kept by a shared or browser cache.
      reply.header('cache-control', 'no-store');
      const { config, database } = app.runtime;
      const body = req.body;
      await app.rateLimiter.consume('login', req.ip, config.RATE_LIMIT_LOGIN_PER_MIN, 60);
      const email = normalizeEmail(body.email);
      if (!isAllowedToSignIn(ctx.allowlist, email)) {
        throw new AppError('forbidden', 'This email may not sign in on this stand.', { reason: 'not_on_allowlist' });
      }
      const ek = emailKey(email);
      const [byEmail, byAddress] = await Promise.all([
        countSignal(app, 'login-fail-email', ek),
        countSignal(app, 'login-fail-address', req.ip),
      ]);
      await checkCaptcha(
        app,
        byEmail >= config.CAPTCHA_AFTER_FAILED_LOGINS_PER_EMAIL ||
          byAddress >= config.CAPTCHA_AFTER_FAILED_LOGINS_PER_ADDRESS,
        body,
      );

      const [account] = await database.db
        .select({ id: accounts.id, passwordHash: accounts.passwordHash })
        .from(accounts)
        .where(and(eq(accounts.email, email), ne(accounts.status, 'deleted')));
      // Unknown emails are verified against a dummy hash: the same cost, so timing tells nothing.
      const ok = await ctx.verifier.verify(account?.passwordHash, body.password);
      if (!account || !ok) {
        const window = config.CAPTCHA_FAILURE_WINDOW_S;
        await Promise.all([
          bumpSignal(app, 'login-fail-email', ek, window),
          bumpSignal(app, 'login-fail-address', req.ip, window),
        ]);
        throw new AppError('unauthorized', 'Wrong email or password.', { reason: 'invalid_credentials' });
      }
      const restricted = await activeRestrictions(database.db, account.id, ['login']);
      if (restricted.length) {
        throw new AppError('account_restricted', 'This account may not sign in.', { restrictions: restricted });
      }
      await clearSignal(app, 'login-fail-email', ek);
      if (ctx.verifier.needsRehash(account.passwordHash!)) {
        const rehashed = await hashPassword(config, body.password);
        await database.db.update(accounts).set({ passwordHash: rehashed }).where(eq(accounts.id, account.id));
      }
      const session = await openSession(database.db, app, account.id, clientMeta(req));
      return tokenPair(app, account.id, session.sessionId, session.refreshToken);
    },
  );
}
