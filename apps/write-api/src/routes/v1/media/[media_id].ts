import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { optionalAuth } from '@guest/auth';
import { MediaDownloadQuery, MediaParams } from '../../../media/schemas.ts';
import type { WriteRouteOptions } from '../../../services.ts';

export default async function mediaFile(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/media/:media_id',
    {
      config: {
        errors: ['validation_error', 'unauthorized', 'not_found'],
        example: {
          after: ['createMediaTicket'],
          file: '*/*',
          params: { media_id: '6f2d8c4a-1b3e-4f5a-9c7d-2e8b0a4c6d1f' },
          query: { t: 'CzrywtoF39Kt370e_47DHjtPAKjWMAEZuH2Oc97BNHQ' },
        },
      },
      onRequest: optionalAuth(),
      // No automatic HEAD: a link checker's HEAD would otherwise spend a single-use ticket.
      exposeHeadRoute: false,
      schema: {
        operationId: 'getMedia',
        tags: ['media'],
        summary: 'Download a private file',
        description:
          'Open at the route level. With `t` (a ticket from `POST /v1/media/{media_id}/ticket`) the reader is the account of ' +
          'the session the ticket was issued to; the ticket is spent by this request whatever the outcome. Without `t` the ' +
          'reader is found by the bearer token. Then the right is checked again. Only the owner gets the file ' +
          '(`Cache-Control: private, no-store`); anyone else, a spent or expired ticket, a closed session and a file that does ' +
          `not exist all get the same 404.`,
        params: MediaParams,
        querystring: MediaDownloadQuery,
        response: {
          200: z.any().meta({ description: 'The file, streamed, with its Content-Type and Content-Length.' }),
        },
      },
    },
    async (req, reply) => {
      const file = await services.media.open(req.params.media_id, { ticket: req.query.t, actorId: req.actorId });
      return reply
        .header('content-type', file.contentType)
        .header('content-length', String(file.size))
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', 'inline')
        .send(file.stream);
    },
  );
}
