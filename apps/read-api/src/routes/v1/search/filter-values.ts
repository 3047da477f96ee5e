import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { FilterValuesParams } from '../../../search/params.ts';
import { FilterValuesResponse } from '../../../search/schemas.ts';
import type { ReadRouteOptions } from '../../../services.ts';

/**
 * GET /v1/search/filter-values: what a filter screen offers for the filters whose values are
 * codes with no reference list (property type, room type, vehicle, transmission, food format,
 * diets, price unit), with counts.
 */
export default async function filterValuesRoute(app: FastifyInstance, { services }: ReadRouteOptions): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/search/filter-values',
    {
      config: {
        errors: ['validation_error'],
        example: {
          query: { kind: 'stay' },
          response: {
            property_type: [
              { code: 'villa', count: 6 },
              { code: 'apartment', count: 4 },
            ],
            room_type: [
              { code: 'entire_place', count: 9 },
              { code: 'private_room', count: 1 },
            ],
            vehicle_kind: [],
            transmission: [],
            food_format: [],
            diets: [],
            price_unit: [{ code: 'night', count: 10 }],
          },
        },
      },
      schema: {
        operationId: 'getSearchFilterValues',
        tags: ['search'],
        summary: 'Values of the code-valued search filters, with counts',
        description:
          'For the filter screen: the codes published listings carry for `property_type`, `room_type`, ' +
          '`vehicle_kind`, `transmission`, `food_format`, `diets` and `price_unit`, each with its number of ' +
          'listings (of `kind`, or of all five), most used first. Their names are in the interface dictionary ' +
          '(`listing.property_type.<code>` and so on).',
        querystring: FilterValuesParams,
        response: { 200: FilterValuesResponse },
      },
    },
    async (req) => services.search.filterValues(req.query.kind),
  );
}
