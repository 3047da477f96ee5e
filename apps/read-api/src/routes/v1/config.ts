import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describeCodes, errorResponses } from '@guest/http-kit';
import { ConfigResponse } from '../../config/schemas.ts';
import { originOf } from '../../nodes/origin.ts';
import type { ReadRouteOptions } from '../../services.ts';

/** GET /v1/config (spec 4.5): what a client needs to know about this server before anything else. */
export default async function configRoutes(
  app: FastifyInstance,
  { services, config }: ReadRouteOptions,
): Promise<void> {
  const cacheControl = `public, max-age=${config.REFERENCE_CACHE_MAX_AGE_S}`;

  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/config',
    {
      schema: {
        tags: ['reference'],
        summary: 'Client configuration',
        description:
          'Map (style, tiles and start view), languages, currencies, search limits, payment and upload settings, ' +
          'and the events region. `currencies` lists the catalog currencies (the configured list while the ' +
          'catalog has none). The region name is in the request language. ' +
          `Errors: ${describeCodes('validation_error', 'rate_limited', 'internal_error')}.`,
        response: { 200: ConfigResponse, ...errorResponses(400, 429, 500) },
      },
    },
    async (req, reply) => {
      const body = await services.clientConfig.get({ apiUrl: originOf(config, req).api_url, lang: req.lang });
      reply.headers({ 'cache-control': cacheControl, vary: 'Accept-Language' });
      return body;
    },
  );
}
