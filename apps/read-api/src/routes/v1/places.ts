import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { langParam } from '@guest/http-kit';
import { PLACE_LEVELS } from '@guest/catalog';
import { withTotalsParam } from '../../places/params.ts';
import { PlaceResponse } from '../../places/schemas.ts';
import type { ReadRouteOptions } from '../../services.ts';

export default async function placesRoutes(app: FastifyInstance, { services }: ReadRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/places',
    {
      config: {
        errors: ['validation_error'],
        example: {
          query: { level: 'district', with_totals: true, lang: 'en' },
          response: [
            {
              id: 5,
              parent_id: 2,
              level: 'district',
              slug: 'karon',
              name: 'Karon',
              listings_count: 4,
              listings_total: 4,
              name_full: 'Karon, Phuket, Thailand',
              timezone: 'Asia/Bangkok',
              currency: 'THB',
              center: { lat: 7.848, lon: 98.294 },
            },
            {
              id: 4,
              parent_id: 2,
              level: 'district',
              slug: 'kata',
              name: 'Kata',
              listings_count: 5,
              listings_total: 5,
              name_full: 'Kata, Phuket, Thailand',
              timezone: 'Asia/Bangkok',
              currency: 'THB',
              center: { lat: 7.8206, lon: 98.2986 },
            },
          ],
        },
      },
      schema: {
        operationId: 'listPlaces',
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
            .max(2_147_483_647)
            .optional()
            .meta({ description: 'Only the children of this place.' }),
          level: z.enum(PLACE_LEVELS).optional(),
          with_totals: withTotalsParam,
          lang: langParam,
        }),
        response: { 200: z.array(PlaceResponse) },
      },
    },
    async (req) =>
      services.places.list({ parentId: req.query.parent_id, level: req.query.level }, req.query.with_totals, req.lang),
  );
}
