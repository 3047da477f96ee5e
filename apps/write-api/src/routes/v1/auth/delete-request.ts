import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { schema } from '@guest/db';
import { describeCodes, errorResponses } from '@guest/http-kit';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { inTransaction } from '@guest/jobs';
import { enqueueMail } from '@guest/mail';
import { DeleteRequest, EmptyBody } from '../../../accounts/schemas.ts';
import { issueEmailToken } from '../../../accounts/email-tokens.ts';
import { deleteAccountMail } from '../../../accounts/mails.ts';
import { addressLooksAutomated, bumpSignal, checkCaptcha, countSignal } from '../../../accounts/captcha-policy.ts';
import type { RouteOptions } from '../../../accounts/context.ts';

const { accounts } = schema;

export default async function deleteRequest(app: FastifyInstance, { ctx }: RouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/auth/delete-request',
    {
      onRequest: requireAuth(),
      schema: {
        tags: ['auth'],
        summary: 'Ask to delete the account; confirmed by email',
        description:
          'Mails a single-use link that confirms the deletion (`POST /v1/auth/delete-confirm`). The body is optional (none, ' +
          '`null`, or a DeleteRequest); an empty captcha pair passes until the client looks like a robot (repeated requests, ' +
          `or failed logins from its address). Errors: ${describeCodes('unauthorized', 'captcha_required', 'schema_invalid', 'rate_limited')}.`,
        security: bearerSecurity,
        body: DeleteRequest.nullable().optional(),
        response: { 202: EmptyBody, ...errorResponses(400, 401, 403, 422, 429, 500) },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const { config, database } = app.runtime;
      const pair = req.body ?? { captcha_id: '', captcha_answer: '' };
      const robot =
        (await countSignal(app, 'delete-account', auth.accountId)) >=
          config.CAPTCHA_AFTER_DELETE_REQUESTS_PER_ACCOUNT || (await addressLooksAutomated(app, req.ip));
      await checkCaptcha(app, robot, pair);
      await bumpSignal(app, 'delete-account', auth.accountId, 3600);
      await inTransaction(database, async (tx, jobDb) => {
        const [account] = await tx
          .select({ email: accounts.email, firstName: accounts.firstName })
          .from(accounts)
          .where(eq(accounts.id, auth.accountId));
        if (!account?.email) return;
        const token = await issueEmailToken(tx, auth.accountId, 'delete_account', config.ACCOUNT_DELETE_TTL_MIN);
        await enqueueMail(tx, jobDb, ctx.jobs, {
          to: account.email,
          accountId: auth.accountId,
          ...deleteAccountMail(config, account.firstName, token),
        });
      });
      // Empty body (spec): nothing is serialized when the payload is undefined.
      return reply.code(202).send(undefined as never);
    },
  );
}
