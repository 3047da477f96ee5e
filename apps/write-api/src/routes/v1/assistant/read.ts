import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describeCodes, errorResponses } from '@guest/http-kit';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { BadgesResponse } from '../../../badges/schemas.ts';
import type { WriteRouteOptions } from '../../../services.ts';

export default async function assistantRead(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/assistant/read',
    {
      config: { example: { response: { notifications: 0, messages: 0, assistant: 0 } } },
      onRequest: requireAuth(),
      schema: {
        tags: ['badges'],
        summary: "Mark the assistant's messages seen",
        description:
          'Clears the `assistant` badge (spec 6.2) and answers the new counters; open sockets get `badges.updated`. ' +
          `Errors: ${describeCodes('unauthorized', 'rate_limited')}.`,
        security: bearerSecurity,
        response: { 200: BadgesResponse, ...errorResponses(401, 429, 500) },
      },
    },
    async (req) => services.badges.markAssistantSeen(authOf(req).accountId),
  );
}
