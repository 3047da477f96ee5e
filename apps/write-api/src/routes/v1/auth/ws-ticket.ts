import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { WsTicketResponse } from '../../../auth/schemas.ts';
import type { WriteRouteOptions } from '../../../services.ts';

export default async function wsTicket(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/auth/ws-ticket',
    {
      onRequest: requireAuth({ confirmed: true, restrictions: ['login'] }),
      config: {
        errors: ['unauthorized', 'email_not_confirmed', 'account_restricted'],
        idempotent: true,
        example: { response: { ticket: '4wDHhDiHtgh0Zl8cDg4_6ZyEdN3S-c1k-Q0j_B8LBl0', expires_in: 60 } },
      },
      schema: {
        operationId: 'createWsTicket',
        tags: ['auth'],
        summary: 'One-time ticket for the socket (web client)',
        description:
          `Valid ${services.config.WS_TICKET_TTL_S} seconds, single use, opens nothing but \`/v1/ws?ticket=…\`. ` +
          'Needs a confirmed email.',
        security: bearerSecurity,
        response: { 200: WsTicketResponse },
      },
    },
    async (req, reply) => {
      // Credentials must never be kept by a shared or browser cache.
      reply.header('cache-control', 'no-store');
      return services.auth.sessions.wsTicket(authOf(req));
    },
  );
}
