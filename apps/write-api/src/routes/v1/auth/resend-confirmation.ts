import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { schema } from '@guest/db';
import { describeCodes, errorResponses, MessageResponse } from '@guest/http-kit';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { inTransaction } from '@guest/jobs';
import { enqueueMail } from '@guest/mail';
import { issueEmailToken } from '../../../accounts/email-tokens.ts';
import { confirmEmailMail } from '../../../accounts/mails.ts';
import type { RouteOptions } from '../../../accounts/context.ts';

const { accounts } = schema;

export default async function resendConfirmation(app: FastifyInstance, { ctx }: RouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/auth/resend-confirmation',
    {
      onRequest: requireAuth(),
      schema: {
        tags: ['auth'],
        summary: 'Send the email-confirmation link again',
        description:
          `At most ${app.runtime.config.RATE_LIMIT_RESEND_CONFIRMATION_PER_HOUR} per hour per account; earlier links stop working. ` +
          `Answers 200 with a message when the email is already confirmed. Errors: ${describeCodes('unauthorized', 'rate_limited')}.`,
        security: bearerSecurity,
        response: { 200: MessageResponse, ...errorResponses(401, 429, 500) },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const { config, database } = app.runtime;
      if (auth.emailConfirmed) return { ok: true, message: 'Email already confirmed.' };
      await app.rateLimiter.consume(
        'resend-confirmation',
        auth.accountId,
        config.RATE_LIMIT_RESEND_CONFIRMATION_PER_HOUR,
        3600,
      );
      await inTransaction(database, async (tx, jobDb) => {
        const [account] = await tx
          .select({ email: accounts.email, firstName: accounts.firstName })
          .from(accounts)
          .where(eq(accounts.id, auth.accountId));
        if (!account?.email) return;
        const token = await issueEmailToken(tx, auth.accountId, 'confirm_email', config.EMAIL_CONFIRM_TTL_H * 60);
        await enqueueMail(tx, jobDb, ctx.jobs, {
          to: account.email,
          accountId: auth.accountId,
          ...confirmEmailMail(config, account.firstName, token),
        });
      });
      return { ok: true, message: 'Confirmation email sent.' };
    },
  );
}
