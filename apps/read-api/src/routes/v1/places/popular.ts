import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { langParam, limitParam } from '@guest/http-kit';
import { withTotalsParam } from '../../../places/params.ts';
import { PlaceResponse } from '../../../places/schemas.ts';
import type { ReadRouteOptions } from '../../../services.ts';

export default async function popularPlacesRoute(app: FastifyInstance, { services, config }: ReadRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/places/popular',
    {
      config: {
        errors: ['validation_error'],
        example: {
          query: { limit: 5, lang: 'en' },
          response: [
            {
              id: 3,
              parent_id: 1,
              level: 'region',
              slug: 'bangkok',
              name: 'Bangkok',
              listings_count: 0,
              listings_total: null,
              name_full: 'Bangkok, Thailand',
              timezone: 'Asia/Bangkok',
              currency: 'THB',
              center: { lat: 13.7563, lon: 100.5018 },
            },
          ],
        },
      },
      schema: {
        operationId: 'listPopularPlaces',
        tags: ['reference'],
        summary: 'Popular places, the busiest first',
        description:
          'Places the catalog marks popular, ordered by published listings including nested places (most first), ' +
          'then by name. Never read as a place slug, even when a place is called "popular".',
        querystring: z.object({
          with_totals: withTotalsParam,
          limit: limitParam(config.PLACES_POPULAR_LIMIT, 100),
          lang: langParam,
        }),
        response: { 200: z.array(PlaceResponse) },
      },
    },
    async (req) => services.places.popular(req.query.with_totals, req.query.limit, req.lang),
  );
}
