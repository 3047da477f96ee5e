import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describeCodes, errorResponses, MessageResponse } from '@guest/http-kit';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import type { WriteRouteOptions } from '../../../services.ts';

export default async function logoutAll(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/auth/logout-all',
    {
      config: { example: { response: { ok: true, message: 'Signed out of 0 other sessions.' } } },
      onRequest: requireAuth({ allowLoginRestricted: true }),
      schema: {
        tags: ['auth'],
        summary: 'End every other session',
        description: `All sessions of the account except the current one end at once. Errors: ${describeCodes('unauthorized', 'rate_limited')}.`,
        security: bearerSecurity,
        response: { 200: MessageResponse, ...errorResponses(401, 429, 500) },
      },
    },
    async (req) => {
      const ended = await services.auth.sessions.logoutOthers(authOf(req));
      return { ok: true, message: `Signed out of ${ended} other session${ended === 1 ? '' : 's'}.` };
    },
  );
}
