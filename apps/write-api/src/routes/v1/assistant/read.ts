import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { BadgesResponse } from '../../../badges/schemas.ts';
import type { WriteRouteOptions } from '../../../services.ts';

export default async function assistantRead(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/assistant/read',
    {
      config: { errors: ['unauthorized'], example: { response: { notifications: 0, messages: 0, assistant: 0 } } },
      onRequest: requireAuth(),
      schema: {
        operationId: 'markAssistantRead',
        tags: ['badges'],
        summary: "Mark the assistant's messages seen",
        description:
          'Clears the `assistant` badge (spec 6.2) and answers the new counters; open sockets get `badges.updated`.',
        security: bearerSecurity,
        response: { 200: BadgesResponse },
      },
    },
    async (req) => services.badges.markAssistantSeen(authOf(req).accountId),
  );
}
