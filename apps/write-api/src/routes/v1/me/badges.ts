import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { BadgesResponse } from '../../../badges/schemas.ts';
import type { WriteRouteOptions } from '../../../services.ts';

export default async function meBadges(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/me/badges',
    {
      config: { errors: ['unauthorized'], example: { response: { notifications: 2, messages: 3, assistant: 1 } } },
      onRequest: requireAuth(),
      schema: {
        operationId: 'getBadges',
        tags: ['me'],
        summary: 'Unread counters',
        description:
          'Unread notifications, unread messages across all conversations, unseen assistant messages. Cleared by ' +
          '`POST /v1/notifications/read`, `POST /v1/chats/dialogs/{id}/read` and `POST /v1/assistant/read`; every change is ' +
          'also sent to open sockets as `badges.updated`. The web client may cache this reply for one minute.',
        security: bearerSecurity,
        response: { 200: BadgesResponse },
      },
    },
    async (req) => services.badges.get(authOf(req).accountId),
  );
}
