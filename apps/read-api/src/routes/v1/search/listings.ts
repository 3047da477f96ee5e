import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { optionalAuth } from '@guest/auth';
import { cursorParam, errorResponses, limitParam } from '@guest/http-kit';
import { filterRules, SearchFilters, SORTS } from '../../../search/filters.ts';
import { FeedResponse } from '../../../search/schemas.ts';
import type { ReadRouteOptions } from '../../../services.ts';

/** GET /v1/search/listings (spec 4.7): the feed, cursor-paged with search_after. */
export default async function listingsRoute(
  app: FastifyInstance,
  { services, config }: ReadRouteOptions,
): Promise<void> {
  const Query = SearchFilters.extend({
    sort: z.enum(SORTS).default('relevance').meta({
      description:
        '`relevance` (with `q`: best match; without: best rated), `price_asc`, `price_desc`, `rating`, `distance` (needs `near`), `new`.',
    }),
    limit: limitParam(config.SEARCH_LIMIT_DEFAULT, config.SEARCH_LIMIT_MAX),
    cursor: cursorParam,
  }).superRefine(filterRules);

  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/search/listings',
    {
      onRequest: optionalAuth({ audience: 'read' }),
      schema: {
        tags: ['search'],
        summary: 'Search feed of listings',
        description:
          'Optional sign-in: signed-in guests get `is_favorite` on each card. Texts are in the request language ' +
          '(`lang` or `Accept-Language`), else English, with `lang`/`translated` on each card.',
        security: [{}, { bearer: [] }],
        querystring: Query,
        response: { 200: FeedResponse, ...errorResponses(400, 401, 429, 500) },
      },
    },
    async (req) => services.search.feed(req.query, { lang: req.lang, accountId: req.auth?.accountId }),
  );
}
