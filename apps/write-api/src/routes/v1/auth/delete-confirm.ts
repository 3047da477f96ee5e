import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eq, sql } from 'drizzle-orm';
import { schema } from '@guest/db';
import { describeCodes, errorResponses, MessageResponse } from '@guest/http-kit';
import { inTransaction } from '@guest/jobs';
import { ConfirmEmailRequest } from '../../../accounts/schemas.ts';
import { consumeEmailToken } from '../../../accounts/email-tokens.ts';
import { announceClosed, closeSessions } from '../../../accounts/sessions.ts';
import { erasePersonalProfileData } from '../../../profile/service.ts';

const { accounts, sessions, emailTokens, mailOutbox } = schema;

export default async function deleteConfirm(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/auth/delete-confirm',
    {
      schema: {
        tags: ['auth'],
        summary: 'Delete the account with the emailed token',
        description:
          'Ends every session, marks the account `deleted` and erases its personal data (email, names, password, profile, ' +
          'avatar, devices, favorites, notifications, assistant history, addresses and devices of its sessions, its mail). The account id stays, detached from the person, for the records the law ' +
          'keeps (payments). A later sign-in with the old email fails. An invalid, expired or used token is 400 on `token`. ' +
          `Errors: ${describeCodes('validation_error', 'schema_invalid', 'rate_limited')}.`,
        body: ConfirmEmailRequest,
        response: { 200: MessageResponse, ...errorResponses(400, 422, 429, 500) },
      },
    },
    async (req) => {
      const { accountId, closed } = await inTransaction(app.runtime.database, async (tx) => {
        const id = await consumeEmailToken(tx, req.body.token, 'delete_account');
        const closedIds = await closeSessions(tx, id, 'all', 'account_deleted');
        await tx
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
        await tx.update(sessions).set({ ip: '', userAgent: null }).where(eq(sessions.accountId, id));
        await tx.delete(emailTokens).where(eq(emailTokens.accountId, id));
        await tx.delete(mailOutbox).where(eq(mailOutbox.accountId, id));
        await erasePersonalProfileData(tx, id, app.runtime.storage);
        return { accountId: id, closed: closedIds };
      });
      await announceClosed(app, accountId, closed);
      return { ok: true, message: 'Account deleted.' };
    },
  );
}
