import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MessageResponse } from '@guest/http-kit';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { SessionIdParams } from '../../../../auth/schemas.ts';
import type { WriteRouteOptions } from '../../../../services.ts';

export default async function meSession(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().delete(
    '/v1/me/sessions/:session_id',
    {
      config: {
        errors: ['validation_error', 'unauthorized', 'not_found'],
        example: {
          params: { session_id: '3b8f1c2e-7d4a-4e6b-9a5c-0d1e2f3a4b5c' },
          response: { ok: true, message: 'Session ended.' },
        },
      },
      onRequest: requireAuth({ allowLoginRestricted: true }),
      schema: {
        operationId: 'closeSession',
        tags: ['me'],
        summary: 'End one session of the account',
        description:
          "Ends it at once. A session of someone else, an unknown or an already closed one is 404 `not_found`. Ending the caller's own " +
          `current session signs it out like logout.`,
        security: bearerSecurity,
        params: SessionIdParams,
        response: { 200: MessageResponse },
      },
    },
    async (req) => {
      await services.auth.sessions.revoke(authOf(req), req.params.session_id);
      return { ok: true, message: 'Session ended.' };
    },
  );
}
