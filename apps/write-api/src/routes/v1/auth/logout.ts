import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { clearSessionCookies, MessageResponse, wantsCookieSession } from '@guest/http-kit';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import type { WriteRouteOptions } from '../../../services.ts';

export default async function logout(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/auth/logout',
    {
      config: { errors: ['unauthorized'], example: { response: { ok: true, message: 'Signed out.' } } },
      onRequest: requireAuth({ allowLoginRestricted: true }),
      schema: {
        operationId: 'logout',
        tags: ['auth'],
        summary: 'End the current session',
        description:
          'At once: its access tokens answer 401 from the next call on, and its refresh token stops working. ' +
          'A web session (`X-Session: cookie`) also gets its cookies removed (`Max-Age=0`).',
        security: bearerSecurity,
        response: { 200: MessageResponse },
      },
    },
    async (req, reply) => {
      await services.auth.sessions.logout(authOf(req));
      if (wantsCookieSession(req)) clearSessionCookies(reply, services.config);
      return { ok: true, message: 'Signed out.' };
    },
  );
}
