import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, langParam } from '@guest/http-kit';
import { PLACE_LEVELS } from '@guest/catalog';
import { withTotalsParam } from '../../places/params.ts';
import { PlaceResponse } from '../../places/schemas.ts';
import type { ReadRouteOptions } from '../../services.ts';

export default async function placesRoutes(app: FastifyInstance, { services }: ReadRouteOptions) {
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
          lang: langParam,
        }),
        response: { 200: z.array(PlaceResponse), ...errorResponses(400, 429, 500) },
      },
    },
    async (req) =>
      services.places.list({ parentId: req.query.parent_id, level: req.query.level }, req.query.with_totals, req.lang),
  );
}
