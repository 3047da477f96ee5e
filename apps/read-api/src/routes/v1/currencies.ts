import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describeCodes, errorResponses } from '@guest/http-kit';
import type { ReadRouteOptions } from '../../services.ts';

export const CurrencyResponse = z
  .object({
    code: z.string().meta({ description: 'ISO 4217 code, e.g. `THB`.' }),
    name: z.string().meta({ description: 'In the request language, else English.' }),
    symbol: z.string().nullable().meta({ description: 'e.g. `฿`; null when the catalog has none.' }),
    minor_units: z
      .number()
      .int()
      .meta({ description: 'Digits after the decimal point: `price_minor` / 10^minor_units is the amount.' }),
  })
  .meta({ id: 'CurrencyResponse' });

/** GET /v1/currencies (spec 4.5): the catalog's currencies, read-only from the catalog tables. */
export default async function currenciesRoutes(
  app: FastifyInstance,
  { services, config }: ReadRouteOptions,
): Promise<void> {
  const cacheControl = `public, max-age=${config.REFERENCE_CACHE_MAX_AGE_S}`;
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/currencies',
    {
      schema: {
        tags: ['reference'],
        summary: 'Currencies',
        description:
          'Every currency of the catalog, by code, named in the request language. ' +
          `Errors: ${describeCodes('rate_limited', 'internal_error')}.`,
        response: { 200: z.array(CurrencyResponse), ...errorResponses(429, 500) },
      },
    },
    async (req, reply) => {
      const body = await services.currencies.list(req.lang);
      reply.headers({ 'cache-control': cacheControl, vary: 'Accept-Language' });
      return body;
    },
  );
}
