import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eq, sql } from 'drizzle-orm';
import { schema } from '@guest/db';
import { describeCodes, errorResponses, MessageResponse } from '@guest/http-kit';
import { inTransaction } from '@guest/jobs';
import { ConfirmEmailRequest } from '../../../accounts/schemas.ts';
import { consumeEmailToken } from '../../../accounts/email-tokens.ts';

const { accounts } = schema;

export default async function confirmEmail(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/auth/confirm-email',
    {
      schema: {
        tags: ['auth'],
        summary: 'Confirm the email address with the emailed token',
        description:
          'The token is the `token` query parameter of the link in the confirmation mail; it works once. An invalid, expired or ' +
          `used token is 400 \`validation_error\` on \`token\`. Errors: ${describeCodes('validation_error', 'schema_invalid', 'rate_limited')}.`,
        body: ConfirmEmailRequest,
        response: { 200: MessageResponse, ...errorResponses(400, 422, 429, 500) },
      },
    },
    async (req) => {
      await inTransaction(app.runtime.database, async (tx) => {
        const accountId = await consumeEmailToken(tx, req.body.token, 'confirm_email');
        await tx
          .update(accounts)
          .set({ emailConfirmedAt: sql`coalesce(${accounts.emailConfirmedAt}, now())`, updatedAt: sql`now()` })
          .where(eq(accounts.id, accountId));
      });
      return { ok: true, message: 'Email confirmed.' };
    },
  );
}
