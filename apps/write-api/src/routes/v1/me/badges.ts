import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describeCodes, errorResponses } from '@guest/http-kit';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { BadgesResponse } from '../../../badges/schemas.ts';
import type { WriteRouteOptions } from '../../../services.ts';

export default async function meBadges(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/me/badges',
    {
      config: { example: { response: { notifications: 2, messages: 3, assistant: 1 } } },
      onRequest: requireAuth(),
      schema: {
        tags: ['me'],
        summary: 'Unread counters',
        description:
          'Unread notifications, unread messages across all conversations, unseen assistant messages. Cleared by ' +
          '`POST /v1/notifications/read`, `POST /v1/chats/dialogs/{id}/read` and `POST /v1/assistant/read`; every change is ' +
          'also sent to open sockets as `badges.updated`. The web client may cache this reply for one minute. ' +
          `Errors: ${describeCodes('unauthorized', 'rate_limited')}.`,
        security: bearerSecurity,
        response: { 200: BadgesResponse, ...errorResponses(401, 429, 500) },
      },
    },
    async (req) => services.badges.get(authOf(req).accountId),
  );
}
