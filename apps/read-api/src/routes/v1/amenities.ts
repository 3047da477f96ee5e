import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '@guest/http-kit';
import { AmenityGroupResponse } from '../../reference/schemas.ts';
import { readAmenities, type AmenityRow } from '../../reference/catalog-lists.ts';
import { createTtlCache } from '../../reference/cache.ts';
import { groupAmenities } from '../../reference/amenities.ts';

export default async function amenitiesRoute(app: FastifyInstance) {
  const cache = createTtlCache<AmenityRow[]>(app.runtime.config.REFERENCE_LIST_CACHE_TTL_S);
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/amenities',
    {
      schema: {
        tags: ['reference'],
        summary: 'Amenities grouped, names in the request language',
        description:
          'Groups in a fixed order (unknown groups last, by code), amenities by name inside a group. `kind` keeps ' +
          'only amenities applicable to that kind; groups left empty are dropped.',
        querystring: z.object({
          kind: z.enum(['stay', 'experience', 'service']).optional(),
          lang: z.string().max(35).optional(),
        }),
        response: { 200: z.array(AmenityGroupResponse), ...errorResponses(400, 429, 500) },
      },
    },
    async (req) => {
      const rows = await cache.get('all', () => readAmenities(app.runtime.database.db));
      return groupAmenities(rows, req.query.kind ?? null, req.lang);
    },
  );
}
