import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PriceRangeParams } from '../../../search/params.ts';
import { PriceRangeResponse } from '../../../search/schemas.ts';
import type { ReadRouteOptions } from '../../../services.ts';

/** GET /v1/search/price-range (spec 4.7): only `kind` and `currency`; other filters are not accepted. */
export default async function priceRangeRoute(app: FastifyInstance, { services }: ReadRouteOptions): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/search/price-range',
    {
      config: {
        errors: ['validation_error'],
        sharedAnswer: true,
        example: {
          query: { kind: 'stay', currency: 'THB' },
          response: {
            currency: 'THB',
            min_minor: 120000,
            max_minor: 450000,
            histogram: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1],
            units: [
              {
                price_unit: 'night',
                count: 4,
                min_minor: 120000,
                max_minor: 450000,
                histogram: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1],
              },
            ],
          },
        },
      },
      schema: {
        operationId: 'getPriceRange',
        tags: ['search'],
        summary: 'Price range and histogram for the price slider',
        description:
          'Only `kind` and `currency`; other filters are deliberately not accepted. `histogram` has 24 segments on a ' +
          'quadratic scale from zero (a handle at p means `max_minor · p²`), empty when there are no prices. ' +
          '`units` gives the same for each price unit on its own scale: a price per night and a price per month ' +
          'are not compared, so a price filter is set on one unit and sent with `price_unit`.',
        querystring: PriceRangeParams,
        response: { 200: PriceRangeResponse },
      },
    },
    async (req) => services.search.priceRange(req.query),
  );
}
