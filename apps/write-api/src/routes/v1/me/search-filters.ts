import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { SearchFiltersRequest, SearchFiltersResponse } from '../../../me/schemas.ts';
import type { WriteRouteOptions } from '../../../services.ts';

export default async function meSearchFilters(app: FastifyInstance, { services }: WriteRouteOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { config } = services;

  r.get(
    '/v1/me/search-filters',
    {
      config: {
        errors: ['unauthorized', 'email_not_confirmed'],
        example: { response: { stay: {}, experience: {}, service: {}, map_view: {} } },
      },
      onRequest: requireAuth({ confirmed: true }),
      schema: {
        operationId: 'getSearchFilters',
        tags: ['me'],
        summary: 'Saved search filters',
        description: `Sections \`stay\`, \`experience\`, \`service\`, \`map_view\`.`,
        security: bearerSecurity,
        response: { 200: SearchFiltersResponse },
      },
    },
    async (req) => services.profile.searchFilters(authOf(req).accountId),
  );

  r.put(
    '/v1/me/search-filters',
    {
      config: {
        errors: ['validation_error', 'unauthorized', 'email_not_confirmed', 'schema_invalid'],
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
        operationId: 'putSearchFilters',
        tags: ['me'],
        summary: 'Save search filters',
        description:
          'Sections absent from the body stay as they were; a section sent replaces the saved one; `null` clears it. A ' +
          `section over ${config.SEARCH_FILTER_SECTION_MAX_BYTES} bytes of JSON is 400 \`validation_error\` naming it. `,
        security: bearerSecurity,
        body: SearchFiltersRequest,
        response: { 200: SearchFiltersResponse },
      },
    },
    async (req) => services.profile.saveSearchFilters(authOf(req).accountId, req.body),
  );
}
