import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, queryBool } from '@guest/http-kit';
import { PLACE_LEVELS } from '@guest/catalog';
import { PlaceResponse } from '../../reference/schemas.ts';
import type { ReadRouteOptions } from '../../services.ts';
import popularPlacesRoute from './places/popular.ts';
import placeCardRoute from './places/slug.ts';

export const withTotalsParam = queryBool
  .default(false)
  .meta({ description: 'Fill `listings_total`: listings of the place together with every nested place.' });

export default async function placesRoutes(app: FastifyInstance, opts: ReadRouteOptions) {
  const { services } = opts;
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/places',
    {
      schema: {
        tags: ['reference'],
        summary: 'Places (country, region, district, area), names in the request language',
        description:
          'Every place, or only the children of `parent_id`, or only one `level`. Order: by level from the country ' +
          'down, then by name. Counts are published listings (the boundary of the feed).',
        querystring: z.object({
          parent_id: z.coerce
            .number()
            .int()
            .min(1)
            .optional()
            .meta({ description: 'Only the children of this place.' }),
          level: z.enum(PLACE_LEVELS).optional(),
          with_totals: withTotalsParam,
          lang: z.string().max(35).optional(),
        }),
        response: { 200: z.array(PlaceResponse), ...errorResponses(400, 429, 500) },
      },
    },
    async (req) =>
      services.places.list({ parentId: req.query.parent_id, level: req.query.level }, req.query.with_totals, req.lang),
  );
  // `/v1/places/popular` is a static route: the router always prefers it to `/v1/places/:slug`.
  await app.register(popularPlacesRoute, opts);
  await app.register(placeCardRoute, opts);
}
