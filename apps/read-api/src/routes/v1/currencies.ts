import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CurrencyResponse } from '../../currencies/schemas.ts';
import type { ReadRouteOptions } from '../../services.ts';

/** GET /v1/currencies (spec 4.5): the catalog's currencies, read-only from the catalog tables. */
export default async function currenciesRoutes(
  app: FastifyInstance,
  { services, config }: ReadRouteOptions,
): Promise<void> {
  const cacheControl = `public, max-age=${config.REFERENCE_CACHE_MAX_AGE_S}`;
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/currencies',
    {
      config: {
        errors: [],
        example: {
          response: [
            { code: 'EUR', name: 'Euro', symbol: '€', minor_units: 2 },
            { code: 'THB', name: 'Thai baht', symbol: '฿', minor_units: 2 },
          ],
        },
      },
      schema: {
        operationId: 'listCurrencies',
        tags: ['reference'],
        summary: 'Currencies',
        description: 'Every currency of the catalog, by code, named in the request language.',
        response: { 200: z.array(CurrencyResponse) },
      },
    },
    async (req, reply) => {
      const body = await services.currencies.list(req.lang);
      reply.headers({ 'cache-control': cacheControl, vary: 'Accept-Language' });
      return body;
    },
  );
}
