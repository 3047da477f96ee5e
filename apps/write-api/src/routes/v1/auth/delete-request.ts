import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { DeleteRequest, EmptyBody } from '../../../auth/schemas.ts';
import type { WriteRouteOptions } from '../../../services.ts';

export default async function deleteRequest(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/auth/delete-request',
    {
      onRequest: requireAuth(),
      config: {
        errors: ['validation_error', 'unauthorized', 'captcha_required', 'schema_invalid'],
        idempotent: true,
        example: { last: true, body: {} },
      },
      schema: {
        operationId: 'requestAccountDeletion',
        tags: ['auth'],
        summary: 'Ask to delete the account; confirmed by email',
        description:
          'Mails a single-use link that confirms the deletion (`POST /v1/auth/delete-confirm`). The body is optional (none, ' +
          '`null`, or a DeleteRequest); an empty captcha pair passes until the client looks like a robot (repeated requests, ' +
          `or failed logins from its address).`,
        security: bearerSecurity,
        body: DeleteRequest.nullable().optional(),
        response: { 202: EmptyBody },
      },
    },
    async (req, reply) => {
      const pair = req.body ?? { captcha_id: '', captcha_answer: '', captcha_nonce: '' };
      await services.auth.deletion.request(authOf(req), pair, req.addressKey);
      // Empty body (spec): nothing is serialized when the payload is undefined.
      return reply.code(202).send(undefined as never);
    },
  );
}
