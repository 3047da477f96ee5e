import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
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
      config: {
        errors: ['validation_error'],
        example: {
          response: {
            map: {
              style_url: 'https://api.example.com/v1/map/style.json',
              tilejson_url: 'https://api.example.com/v1/map/tiles.json',
              tiles_url: 'https://api.example.com/v1/map/tiles/{z}/{x}/{y}.pbf',
              relief_url: 'https://api.example.com/v1/map/relief/{z}/{x}/{y}.png',
              glyphs_url: 'https://api.example.com/v1/map/fonts/{fontstack}/{range}.pbf',
              sprite_url: 'https://api.example.com/v1/map/sprites/sprite',
              start: { lat: 7.8804, lon: 98.3923, zoom: 10 },
              min_zoom: 2,
              max_zoom: 18,
            },
            languages: ['en', 'ru', 'th', 'zh-Hans'],
            default_language: 'en',
            currencies: ['EUR', 'THB', 'USD'],
            base_currency: 'THB',
            search: {
              limit_default: 20,
              limit_max: 100,
              map_max_points: 500,
              calendar_days_default: 14,
              calendar_days_max: 62,
              upcoming_days_default: 30,
              schedule_horizon_days: 180,
            },
            online_payments_enabled: false,
            service_fee_percent: 0,
            max_upload_mb: 10,
            review_window_days: 14,
            assistant_enabled: false,
            region: {
              id: 2,
              slug: 'phuket',
              name: 'Phuket',
              timezone: 'Asia/Bangkok',
              currency: 'THB',
              center: { lat: 7.88, lon: 98.39 },
            },
          },
        },
      },
      schema: {
        operationId: 'getConfig',
        tags: ['reference'],
        summary: 'Client configuration',
        description:
          'Map (style, tiles and start view), languages, currencies, search limits, payment and upload settings, ' +
          'and the events region. `currencies` lists the catalog currencies (the configured list while the ' +
          'catalog has none). The region name is in the request language.',
        response: { 200: ConfigResponse },
      },
    },
    async (req, reply) => {
      const body = await services.clientConfig.get({ apiUrl: originOf(config, req).api_url, lang: req.lang });
      reply.headers({ 'cache-control': cacheControl, vary: 'Accept-Language' });
      return body;
    },
  );
}
