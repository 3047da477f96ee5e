import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '@guest/http-kit';
import { SEARCH_KINDS, SearchFilters } from '../../../search/filters.ts';
import { PriceRangeResponse } from '../../../search/schemas.ts';
import type { ReadRouteOptions } from '../../../services.ts';

/** `lang` is every route's language parameter; anything else is refused by name. */
const ACCEPTED = new Set(['kind', 'currency', 'lang']);

/** GET /v1/search/price-range (spec 4.7): only `kind` and `currency`; other filters are not accepted. */
export default async function priceRangeRoute(app: FastifyInstance, { services }: ReadRouteOptions): Promise<void> {
  const Query = z
    .looseObject({
      kind: z.enum(SEARCH_KINDS).optional().meta({ description: 'One kind, or `all`; without it, all five.' }),
      currency: SearchFilters.shape.currency.meta({
        description: 'Currency of the answer (default: the base currency); converted through FX rates.',
      }),
    })
    .superRefine((v, ctx) => {
      for (const key of Object.keys(v)) {
        if (!ACCEPTED.has(key)) {
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message: 'not accepted here: the price range takes only kind and currency',
          });
        }
      }
    });

  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/search/price-range',
    {
      schema: {
        tags: ['search'],
        summary: 'Price range and histogram for the price slider',
        description:
          'Only `kind` and `currency`; other filters are deliberately not accepted. `histogram` has 24 segments on a ' +
          'quadratic scale from zero (a handle at p means `max_minor · p²`), empty when there are no prices.',
        querystring: Query,
        response: { 200: PriceRangeResponse, ...errorResponses(400, 429, 500) },
      },
    },
    async (req) => services.search.priceRange(req.query),
  );
}
