import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MessageResponse } from '@guest/http-kit';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import type { WriteRouteOptions } from '../../../services.ts';

export default async function logoutAll(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/auth/logout-all',
    {
      config: {
        errors: ['unauthorized'],
        example: { response: { ok: true, message: 'Signed out of 0 other sessions.' } },
      },
      onRequest: requireAuth({ allowLoginRestricted: true }),
      schema: {
        operationId: 'logoutAll',
        tags: ['auth'],
        summary: 'End every other session',
        description: `All sessions of the account except the current one end at once.`,
        security: bearerSecurity,
        response: { 200: MessageResponse },
      },
    },
    async (req) => {
      const ended = await services.auth.sessions.logoutOthers(authOf(req));
      return { ok: true, message: `Signed out of ${ended} other session${ended === 1 ? '' : 's'}.` };
    },
  );
}
