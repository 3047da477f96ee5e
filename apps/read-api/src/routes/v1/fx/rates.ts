import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { FxRatesResponse } from '../../../fx/schemas.ts';
import type { ReadRouteOptions } from '../../../services.ts';

/** GET /v1/fx/rates (spec 4.5): the latest rates of the base currency, read-only from the catalog tables. */
export default async function fxRatesRoutes(
  app: FastifyInstance,
  { services, config }: ReadRouteOptions,
): Promise<void> {
  const cacheControl = `public, max-age=${config.REFERENCE_CACHE_MAX_AGE_S}`;
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/fx/rates',
    {
      config: {
        errors: [],
        example: {
          response: {
            base: 'THB',
            date: '2026-11-20',
            fetched_at: '2026-11-20T09:00:00.000Z',
            source: 'central bank',
            rates: { EUR: 0.0262, USD: 0.0281 },
          },
        },
      },
      schema: {
        operationId: 'getFxRates',
        tags: ['reference'],
        summary: 'Exchange rates (approximate)',
        description:
          'The latest exchange rates against the base currency. Rates come from a central bank and are a hint ' +
          'only: payment is in the listing’s currency and the bank converts at its own rate, so clients must mark ' +
          'a conversion as approximate. Before any rates are loaded, `rates` is empty and `date` is null.',
        response: { 200: FxRatesResponse },
      },
    },
    async (_req, reply) => {
      const body = await services.fx.latest();
      reply.header('cache-control', cacheControl);
      return body;
    },
  );
}
