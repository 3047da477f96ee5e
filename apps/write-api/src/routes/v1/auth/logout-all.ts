import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describeCodes, errorResponses, MessageResponse } from '@guest/http-kit';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { announceClosed, closeSessions } from '../../../accounts/sessions.ts';

export default async function logoutAll(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/auth/logout-all',
    {
      onRequest: requireAuth(),
      schema: {
        tags: ['auth'],
        summary: 'End every other session',
        description: `All sessions of the account except the current one end at once. Errors: ${describeCodes('unauthorized', 'rate_limited')}.`,
        security: bearerSecurity,
        response: { 200: MessageResponse, ...errorResponses(401, 429, 500) },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const closed = await closeSessions(
        app.runtime.database.db,
        auth.accountId,
        { allExcept: auth.sessionId },
        'logout_all',
      );
      await announceClosed(app, auth.accountId, closed);
      return { ok: true, message: `Signed out of ${closed.length} other session${closed.length === 1 ? '' : 's'}.` };
    },
  );
}
