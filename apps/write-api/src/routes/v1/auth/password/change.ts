import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eq, sql } from 'drizzle-orm';
import { schema } from '@guest/db';
import { describeCodes, errorResponses, errors, MessageResponse } from '@guest/http-kit';
import {
  authOf,
  bearerSecurity,
  hashPassword,
  passwordProblem,
  PASSWORD_PROBLEM_MESSAGES,
  requireAuth,
} from '@guest/auth';
import { inTransaction } from '@guest/jobs';
import { PasswordChangeRequest } from '../../../../accounts/schemas.ts';
import { announceClosed, closeSessions } from '../../../../accounts/sessions.ts';
import type { RouteOptions } from '../../../../accounts/context.ts';

const { accounts } = schema;

export default async function passwordChange(app: FastifyInstance, { ctx }: RouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/auth/password/change',
    {
      onRequest: requireAuth(),
      schema: {
        tags: ['auth'],
        summary: 'Change the password from inside the account',
        description:
          'Keeps the current session and ends all others (spec 5.11). A wrong `current_password` is 400 `validation_error` ' +
          `on \`current_password\`; a weak new one on \`new_password\`. At most ${app.runtime.config.RATE_LIMIT_PASSWORD_CHANGE_PER_HOUR} attempts per hour. ` +
          `Errors: ${describeCodes('validation_error', 'unauthorized', 'schema_invalid', 'rate_limited')}.`,
        security: bearerSecurity,
        body: PasswordChangeRequest,
        response: { 200: MessageResponse, ...errorResponses(400, 401, 422, 429, 500) },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const { config, database } = app.runtime;
      // Guessing the current password through this route is bounded like login.
      await app.rateLimiter.consume(
        'password-change',
        auth.accountId,
        config.RATE_LIMIT_PASSWORD_CHANGE_PER_HOUR,
        3600,
      );
      const [account] = await database.db
        .select({ email: accounts.email, passwordHash: accounts.passwordHash })
        .from(accounts)
        .where(eq(accounts.id, auth.accountId));
      if (!(await ctx.verifier.verify(account?.passwordHash, req.body.current_password))) {
        throw errors.validation('current_password', 'The current password is wrong.', { reason: 'wrong_password' });
      }
      const problem = passwordProblem(req.body.new_password, account?.email ?? null);
      if (problem) throw errors.validation('new_password', PASSWORD_PROBLEM_MESSAGES[problem], { reason: problem });
      if (req.body.new_password === req.body.current_password) {
        throw errors.validation('new_password', 'The new password is the same as the current one.', {
          reason: 'same_as_current',
        });
      }
      const passwordHash = await hashPassword(config, req.body.new_password);
      const closed = await inTransaction(database, async (tx) => {
        await tx
          .update(accounts)
          .set({ passwordHash, updatedAt: sql`now()` })
          .where(eq(accounts.id, auth.accountId));
        return closeSessions(tx, auth.accountId, { allExcept: auth.sessionId }, 'password_changed');
      });
      await announceClosed(app, auth.accountId, closed);
      return { ok: true, message: 'Password changed. Other sessions were signed out.' };
    },
  );
}
