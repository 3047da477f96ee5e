import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { SESSION_LIST_EXAMPLE } from '../../../../auth/examples.ts';
import { SessionList } from '../../../../auth/schemas.ts';
import type { WriteRouteOptions } from '../../../../services.ts';

export default async function meSessions(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/me/sessions',
    {
      config: {
        errors: ['unauthorized'],
        example: {
          response: SESSION_LIST_EXAMPLE,
        },
      },
      onRequest: requireAuth({ allowLoginRestricted: true }),
      schema: {
        operationId: 'listSessions',
        tags: ['me'],
        summary: 'Open sessions of the account',
        description: `Same list as \`GET /v1/auth/sessions\`.`,
        security: bearerSecurity,
        response: { 200: SessionList },
      },
    },
    async (req) => services.auth.sessions.list(authOf(req)),
  );
}
