import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describeCodes, errorResponses } from '@guest/http-kit';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { SearchFiltersRequest, SearchFiltersResponse } from '../../../me/schemas.ts';
import type { WriteRouteOptions } from '../../../services.ts';

export default async function meSearchFilters(app: FastifyInstance, { services }: WriteRouteOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { config } = services;

  r.get(
    '/v1/me/search-filters',
    {
      config: { example: { response: { stay: {}, experience: {}, service: {}, map_view: {} } } },
      onRequest: requireAuth({ confirmed: true }),
      schema: {
        tags: ['me'],
        summary: 'Saved search filters',
        description: `Sections \`stay\`, \`experience\`, \`service\`, \`map_view\`. Errors: ${describeCodes('unauthorized', 'email_not_confirmed', 'rate_limited')}.`,
        security: bearerSecurity,
        response: { 200: SearchFiltersResponse, ...errorResponses(401, 403, 429, 500) },
      },
    },
    async (req) => services.profile.searchFilters(authOf(req).accountId),
  );

  r.put(
    '/v1/me/search-filters',
    {
      config: {
        example: {
          body: {
            stay: { guests: 2, price_max: 5000, amenities: ['pool', 'wifi'] },
            map_view: { lat: 7.82, lon: 98.3, zoom: 12 },
          },
          response: {
            stay: { guests: 2, amenities: ['pool', 'wifi'], price_max: 5000 },
            experience: {},
            service: {},
            map_view: { lat: 7.82, lon: 98.3, zoom: 12 },
          },
        },
      },
      onRequest: requireAuth({ confirmed: true }),
      schema: {
        tags: ['me'],
        summary: 'Save search filters',
        description:
          'Sections absent from the body stay as they were; a section sent replaces the saved one; `null` clears it. A ' +
          `section over ${config.SEARCH_FILTER_SECTION_MAX_BYTES} bytes of JSON is 400 \`validation_error\` naming it. ` +
          `Errors: ${describeCodes('validation_error', 'schema_invalid', 'unauthorized', 'email_not_confirmed', 'rate_limited')}.`,
        security: bearerSecurity,
        body: SearchFiltersRequest,
        response: { 200: SearchFiltersResponse, ...errorResponses(400, 401, 403, 422, 429, 500) },
      },
    },
    async (req) => services.profile.saveSearchFilters(authOf(req).accountId, req.body),
  );
}
