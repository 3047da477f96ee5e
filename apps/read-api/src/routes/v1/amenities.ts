import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { langParam } from '@guest/http-kit';
import { LISTING_KINDS } from '@guest/catalog';
import { AmenityGroupResponse } from '../../amenities/schemas.ts';
import type { ReadRouteOptions } from '../../services.ts';

export default async function amenitiesRoute(app: FastifyInstance, { services }: ReadRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/amenities',
    {
      config: {
        errors: ['validation_error'],
        example: {
          query: { kind: 'stay', lang: 'en' },
          response: [
            {
              group: 'facilities',
              name: 'Facilities',
              items: [
                { code: 'kitchen', name: 'Kitchen', kinds: ['stay'] },
                { code: 'parking', name: 'Parking', kinds: ['stay', 'food'] },
              ],
            },
            {
              group: 'internet',
              name: 'Internet',
              items: [{ code: 'wifi', name: 'Wi-Fi', kinds: ['stay', 'experience', 'service', 'transport', 'food'] }],
            },
          ],
        },
      },
      schema: {
        operationId: 'listAmenities',
        tags: ['reference'],
        summary: 'Amenities grouped, names in the request language',
        description:
          'Groups in a fixed order (unknown groups last, by code), amenities by name inside a group. `kind` keeps ' +
          'only amenities applicable to that kind; groups left empty are dropped.',
        querystring: z.object({
          kind: z.enum(LISTING_KINDS).extract(['stay', 'experience', 'service']).optional(),
          lang: langParam,
        }),
        response: { 200: z.array(AmenityGroupResponse) },
      },
    },
    async (req) => services.amenities.grouped(req.query.kind ?? null, req.lang),
  );
}
