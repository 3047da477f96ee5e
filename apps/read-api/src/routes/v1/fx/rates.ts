import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describeCodes, errorResponses } from '@guest/http-kit';
import type { ReadRouteOptions } from '../../../services.ts';

export const FxRatesResponse = z
  .object({
    base: z.string().meta({ description: 'The currency the rates are quoted against (the catalog base currency).' }),
    date: z.iso.date().nullable().meta({ description: 'Day the rates are for; null when there are none yet.' }),
    fetched_at: z.iso.datetime().nullable().meta({ description: 'When the rates were fetched from the source (UTC).' }),
    source: z.string().nullable().meta({ description: 'Where the rates come from, e.g. a central bank.' }),
    rates: z
      .record(z.string(), z.number())
      .default({})
      .meta({ description: '`rates[X]`: units of currency X for one unit of `base`. Empty when there are none yet.' }),
  })
  .meta({
    id: 'FxRatesResponse',
    description:
      'Exchange rates from a central bank, a hint only: payment is always in the listing’s own currency and the ' +
      'bank converts at its own rate. Clients must mark every converted amount as approximate.',
  });

/** GET /v1/fx/rates (spec 4.5): the latest rates of the base currency, read-only from the catalog tables. */
export default async function fxRatesRoutes(
  app: FastifyInstance,
  { services, config }: ReadRouteOptions,
): Promise<void> {
  const cacheControl = `public, max-age=${config.REFERENCE_CACHE_MAX_AGE_S}`;
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/fx/rates',
    {
      schema: {
        tags: ['reference'],
        summary: 'Exchange rates (approximate)',
        description:
          'The latest exchange rates against the base currency. Rates come from a central bank and are a hint ' +
          'only: payment is in the listing’s currency and the bank converts at its own rate, so clients must mark ' +
          'a conversion as approximate. Before any rates are loaded, `rates` is empty and `date` is null. ' +
          `Errors: ${describeCodes('rate_limited', 'internal_error')}.`,
        response: { 200: FxRatesResponse, ...errorResponses(429, 500) },
      },
    },
    async (_req, reply) => {
      const body = await services.fx.latest();
      reply.header('cache-control', cacheControl);
      return body;
    },
  );
}
