import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eq, sql } from 'drizzle-orm';
import { schema } from '@guest/db';
import { describeCodes, errorResponses, errors, MessageResponse } from '@guest/http-kit';
import { hashPassword, passwordProblem, PASSWORD_PROBLEM_MESSAGES } from '@guest/auth';
import { inTransaction } from '@guest/jobs';
import { PasswordResetConfirm } from '../../../../accounts/schemas.ts';
import { consumeEmailToken, invalidToken, peekEmailToken } from '../../../../accounts/email-tokens.ts';
import { announceClosed, closeSessions } from '../../../../accounts/sessions.ts';

const { accounts } = schema;

export default async function passwordResetConfirm(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/auth/password-reset/confirm',
    {
      schema: {
        tags: ['auth'],
        summary: 'Set a new password with the emailed token',
        description:
          'Ends every session of the account (spec 5.11) and confirms the email (the link proved it). A weak password is 400 ' +
          '`validation_error` on `password` and leaves the token usable; an invalid, expired or used token is 400 on `token`. ' +
          `Errors: ${describeCodes('validation_error', 'schema_invalid', 'rate_limited')}.`,
        body: PasswordResetConfirm,
        response: { 200: MessageResponse, ...errorResponses(400, 422, 429, 500) },
      },
    },
    async (req) => {
      const { config, database } = app.runtime;
      const { token, password } = req.body;
      const accountId = await peekEmailToken(database.db, token, 'password_reset');
      if (!accountId) throw invalidToken();
      const [account] = await database.db
        .select({ email: accounts.email })
        .from(accounts)
        .where(eq(accounts.id, accountId));
      const problem = passwordProblem(password, account?.email ?? null);
      if (problem) throw errors.validation('password', PASSWORD_PROBLEM_MESSAGES[problem], { reason: problem });
      const passwordHash = await hashPassword(config, password);
      const closed = await inTransaction(database, async (tx) => {
        const id = await consumeEmailToken(tx, token, 'password_reset');
        await tx
          .update(accounts)
          .set({
            passwordHash,
            emailConfirmedAt: sql`coalesce(${accounts.emailConfirmedAt}, now())`,
            updatedAt: sql`now()`,
          })
          .where(eq(accounts.id, id));
        return closeSessions(tx, id, 'all', 'password_reset');
      });
      await announceClosed(app, accountId, closed);
      return { ok: true, message: 'Password changed. Sign in with the new password.' };
    },
  );
}
