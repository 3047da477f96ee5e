import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errors } from '@guest/http-kit';
import type { WriteRouteOptions } from '../../../../services.ts';

/** Cached by browsers and CDNs for a year: a changed avatar is a new URL (issue 10 point 5). */
const IMMUTABLE = 'public, max-age=31536000, immutable';

export default async function avatarFile(app: FastifyInstance, { services }: WriteRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/media/avatars/:file',
    {
      config: {
        errors: ['not_found'],
        example: {
          after: ['uploadAvatar'],
          file: 'image/jpeg',
          params: { file: '5e1f0c3a9b7d2e4f6a8c0b1d3e5f7a9c2b4d6e8f0a1c3e5b7d9f1a3c5e7b9d0f.jpg' },
        },
      },
      schema: {
        operationId: 'getAvatar',
        tags: ['media'],
        summary: 'An avatar, for an image element',
        description:
          'Public: no token and no ticket, so `avatar_url` works in an image element for whoever has it. The name is ' +
          'unguessable (random) and content-addressed, and the bytes behind it never change (`Cache-Control: ' +
          `${IMMUTABLE}\`): a new upload has a new URL, and a replaced or removed avatar is 404 from then on. Other ` +
          `private files keep the ticket flow (\`POST /v1/media/{media_id}/ticket\`).`,
        params: z.object({
          file: z.string().max(100).meta({ description: 'The last segment of `avatar_url`: `<64 hex digits>.jpg`.' }),
        }),
        response: {
          200: z.any().meta({ description: 'The avatar (JPEG), with its Content-Type and Content-Length.' }),
        },
      },
    },
    async (req, reply) => {
      const name = /^([0-9a-f]{32}|[0-9a-f]{64})\.jpg$/.exec(req.params.file)?.[1];
      if (!name) throw errors.notFound();
      const file = await services.media.openAvatar(name);
      return reply
        .header('content-type', file.contentType)
        .header('content-length', String(file.size))
        .header('cache-control', IMMUTABLE)
        .header('x-content-type-options', 'nosniff')
        .header('content-disposition', 'inline')
        .send(file.stream);
    },
  );
}
