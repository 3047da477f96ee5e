import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describeCodes, errorResponses, MessageResponse } from '@guest/http-kit';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { announceClosed, closeSessions } from '../../../accounts/sessions.ts';

export default async function logout(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/auth/logout',
    {
      onRequest: requireAuth(),
      schema: {
        tags: ['auth'],
        summary: 'End the current session',
        description:
          'At once: its access tokens answer 401 from the next call on, and its refresh token stops working. ' +
          `Errors: ${describeCodes('unauthorized', 'rate_limited')}.`,
        security: bearerSecurity,
        response: { 200: MessageResponse, ...errorResponses(401, 429, 500) },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const closed = await closeSessions(app.runtime.database.db, auth.accountId, { only: auth.sessionId }, 'logout');
      await announceClosed(app, auth.accountId, closed);
      return { ok: true, message: 'Signed out.' };
    },
  );
}
