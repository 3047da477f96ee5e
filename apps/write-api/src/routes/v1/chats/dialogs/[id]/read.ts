import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { BadgesResponse } from '../../../../../badges/schemas.ts';
import type { WriteRouteOptions } from '../../../../../services.ts';

export default async function dialogRead(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/chats/dialogs/:id/read',
    {
      config: {
        errors: ['validation_error', 'unauthorized', 'not_found'],
        example: {
          params: { id: '9d4e2b7a-5c1f-4a8e-b3d6-7f0a2c4e6b81' },
          response: { notifications: 0, messages: 0, assistant: 0 },
        },
      },
      onRequest: requireAuth(),
      schema: {
        operationId: 'markDialogRead',
        tags: ['badges'],
        summary: 'Mark a conversation read',
        description:
          "Moves the guest's read marker to the newest message of the dialog, clearing its part of the `messages` badge " +
          '(spec 6.2), and answers the new counters; open sockets get `badges.updated`. A dialog the guest does not take ' +
          `part in is 404.`,
        security: bearerSecurity,
        params: z.object({ id: z.uuid() }),
        response: { 200: BadgesResponse },
      },
    },
    async (req) => services.badges.markDialogRead(authOf(req).accountId, req.params.id),
  );
}
