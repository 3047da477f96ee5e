import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describeCodes, errorResponses } from '@guest/http-kit';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { SESSION_LIST_EXAMPLE } from '../../../../auth/examples.ts';
import { SessionList } from '../../../../auth/schemas.ts';
import type { WriteRouteOptions } from '../../../../services.ts';

export default async function meSessions(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/me/sessions',
    {
      config: {
        example: {
          response: SESSION_LIST_EXAMPLE,
        },
      },
      onRequest: requireAuth({ allowLoginRestricted: true }),
      schema: {
        tags: ['me'],
        summary: 'Open sessions of the account',
        description: `Same list as \`GET /v1/auth/sessions\`. Errors: ${describeCodes('unauthorized', 'rate_limited')}.`,
        security: bearerSecurity,
        response: { 200: SessionList, ...errorResponses(401, 429, 500) },
      },
    },
    async (req) => services.auth.sessions.list(authOf(req)),
  );
}
