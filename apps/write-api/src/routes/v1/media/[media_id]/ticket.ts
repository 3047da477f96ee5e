import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { MediaParams, MediaTicketResponse } from '../../../../media/schemas.ts';
import { mediaUrl, publicBase } from '../../../../media/urls.ts';
import type { WriteRouteOptions } from '../../../../services.ts';

export default async function mediaTicket(app: FastifyInstance, { services }: WriteRouteOptions) {
  const { config } = services;
  app.withTypeProvider<ZodTypeProvider>().post(
    '/v1/media/:media_id/ticket',
    {
      onRequest: requireAuth({ confirmed: true }),
      config: {
        errors: ['validation_error', 'unauthorized', 'email_not_confirmed', 'not_found'],
        idempotent: true,
        example: {
          after: ['uploadAvatar'],
          params: { media_id: '6f2d8c4a-1b3e-4f5a-9c7d-2e8b0a4c6d1f' },
          response: {
            ticket: 'CzrywtoF39Kt370e_47DHjtPAKjWMAEZuH2Oc97BNHQ',
            url: 'https://api.example.com/v1/media/ef1c492e-4d80-4f27-b15d-71f95d061403?t=CzrywtoF39Kt370e_47DHjtPAKjWMAEZuH2Oc97BNHQ',
            expires_in: 60,
            expires_at: '2026-11-23T21:44:22.225Z',
          },
        },
      },
      schema: {
        operationId: 'createMediaTicket',
        tags: ['media'],
        summary: 'One-time link to a private file',
        description:
          'The right to the file is checked first (only its owner; anyone else, and a file that does not exist, get the same ' +
          `404). The ticket lives ${config.MEDIA_TICKET_TTL_S} seconds, opens this one file once, and only while the session ` +
          `it was issued to stays open.`,
        security: bearerSecurity,
        params: MediaParams,
        response: { 200: MediaTicketResponse },
      },
    },
    async (req) => {
      const { media_id } = req.params;
      const { ticket, expiresIn, expiresAt } = await services.media.issueTicket(authOf(req), media_id);
      return {
        ticket,
        url: `${mediaUrl(publicBase(req), media_id)}?t=${encodeURIComponent(ticket)}`,
        expires_in: expiresIn,
        expires_at: expiresAt.toISOString(),
      };
    },
  );
}
