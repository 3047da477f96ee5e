import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '@guest/http-kit';
import type { ReadRouteOptions } from '../../../services.ts';

/** The name is checked by the service; this only bounds it. */
const Params = z.object({ file: z.string().max(64) });

/**
 * GET /demo-photos/v1/{file}: the demo catalog's photos, which cards give as absolute URLs of
 * this origin. Not an operation of the API (no OpenAPI entry): a file whose address a client is
 * handed. The name says all the picture is made from, so it never changes: cached for good.
 */
export default async function demoPhotoRoute(app: FastifyInstance, { services }: ReadRouteOptions): Promise<void> {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/demo-photos/v1/:file', { schema: { hide: true, params: Params } as never }, async (req, reply) => {
      const { file } = req.params as z.infer<typeof Params>;
      const body = await services.demoPhotos.photo(file);
      if (!body) throw new AppError('not_found', 'No such photo.', { path: req.url.split('?')[0] });
      return reply
        .type('image/webp')
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('x-content-type-options', 'nosniff')
        .send(body);
    });
}
