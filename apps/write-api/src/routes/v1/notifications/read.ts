import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { BadgesResponse } from '../../../badges/schemas.ts';
import type { WriteRouteOptions } from '../../../services.ts';

export default async function notificationsRead(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/notifications/read',
    {
      config: { errors: ['unauthorized'], example: { response: { notifications: 0, messages: 0, assistant: 0 } } },
      onRequest: requireAuth(),
      schema: {
        operationId: 'markNotificationsRead',
        tags: ['badges'],
        summary: 'Mark all notifications read',
        description:
          'Clears the `notifications` badge (spec 6.2) and answers the new counters; open sockets get `badges.updated`. ' +
          `Repeating it changes nothing.`,
        security: bearerSecurity,
        response: { 200: BadgesResponse },
      },
    },
    async (req) => services.badges.markNotificationsRead(authOf(req).accountId),
  );
}
