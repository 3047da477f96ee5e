import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, queryBool } from '@guest/http-kit';
import { aliasName, pickText } from '@guest/catalog';
import { CategoryResponse } from '../../reference/schemas.ts';
import { readCategories, type CategoryRow } from '../../reference/catalog-lists.ts';
import { createTtlCache } from '../../reference/cache.ts';
import { categoryCountsQuery } from '../../reference/counts.ts';

export default async function categoriesRoute(app: FastifyInstance) {
  const cache = createTtlCache<CategoryRow[]>(app.runtime.config.REFERENCE_LIST_CACHE_TTL_S);
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/categories',
    {
      schema: {
        tags: ['reference'],
        summary: 'Listing categories of one kind, names in the request language',
        description:
          '`with_counts=true` adds `listings_count`: published listings of that kind in the category, the same ' +
          'boundary as the feed; no other filter affects it. Event categories are at `/v1/events/categories`.',
        querystring: z.object({
          kind: z.enum(['experience', 'service', 'transport', 'food']),
          with_counts: queryBool.default(false),
          lang: z.string().max(35).optional(),
        }),
        response: { 200: z.array(CategoryResponse), ...errorResponses(400, 429, 500) },
      },
    },
    async (req) => {
      const { kind, with_counts } = req.query;
      const rows = await cache.get(kind, () => readCategories(app.runtime.database.db, kind));
      let counts: Map<number, number> | null = null;
      if (with_counts) {
        const res = await app.runtime.search.search(
          aliasName(app.runtime.config.INDEX_PREFIX, 'listings'),
          categoryCountsQuery(
            kind,
            rows.map((r) => r.id),
          ),
        );
        counts = new Map((res.aggregations?.categories?.buckets ?? []).map((b: any) => [Number(b.key), b.doc_count]));
      }
      return rows.map((r) => {
        const name = pickText(r.name, req.lang, req.lang);
        return {
          id: r.id,
          code: r.code,
          kind: kind,
          name: name?.text ?? r.code,
          lang: name?.lang ?? 'en',
          ...(counts ? { listings_count: counts.get(r.id) ?? 0 } : {}),
        };
      });
    },
  );
}
