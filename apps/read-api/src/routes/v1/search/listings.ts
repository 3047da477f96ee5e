import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { optionalAuth } from '@guest/auth';
import { cursorParam, errorResponses, errors, limitParam } from '@guest/http-kit';
import { toListingCard, type CardSource } from '../../../search/cards.ts';
import type { SearchDeps } from '../../../search/context.ts';
import { buildFeedRequest, FEED_CURSOR_SCOPE, requestFingerprint, type FeedCursor } from '../../../search/feed.ts';
import { filterRules, SearchFilters, SORTS } from '../../../search/filters.ts';
import { FeedResponse } from '../../../search/schemas.ts';
import { favoriteIds } from '../../../search/favorites.ts';

/** GET /v1/search/listings (spec 4.7): the feed, cursor-paged with search_after. */
export default async function listingsRoute(app: FastifyInstance, opts: { deps: SearchDeps }): Promise<void> {
  const { deps } = opts;
  const { config } = app.runtime;
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
    async (req) => {
      const { sort, limit, cursor, ...filters } = req.query;
      const fingerprint = requestFingerprint(filters, sort);
      let searchAfter: unknown[] | undefined;
      if (cursor) {
        const c = app.cursors.decode<FeedCursor>(FEED_CURSOR_SCOPE, cursor);
        if (!c || c.h !== fingerprint || !Array.isArray(c.a)) {
          throw errors.validation(
            'cursor',
            'The cursor belongs to other filters or another sort; start again without it.',
            {
              reason: 'filters_changed',
            },
          );
        }
        searchAfter = c.a;
      }
      const ctx = await deps.queryContext();
      const body = buildFeedRequest(filters, ctx, { sort, limit, searchAfter });
      const res = await deps.engine.search<CardSource>(deps.listingsIndex, body);
      const page = res.hits.slice(0, limit);
      const hasMore = res.hits.length > limit;
      const last = page.at(-1);
      const favorites = req.auth
        ? await favoriteIds(
            app.runtime.database.pool,
            req.auth.accountId,
            page.map((h) => h._source.id),
          )
        : null;
      return {
        items: page.map((h) => toListingCard(h._source, { lang: req.lang, near: filters.near, favorites })),
        has_more: hasMore,
        next_cursor:
          hasMore && last?.sort
            ? app.cursors.encode(FEED_CURSOR_SCOPE, { a: last.sort, h: fingerprint } satisfies FeedCursor)
            : null,
      };
    },
  );
}
