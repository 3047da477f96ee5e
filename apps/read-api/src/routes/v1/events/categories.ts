import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '@guest/http-kit';
import { pickText } from '@guest/catalog';
import { CategoryResponse } from '../../../reference/schemas.ts';
import { readCategories } from '../../../reference/catalog-lists.ts';
import { createTtlCache } from '../../../reference/cache.ts';

export default async function eventCategoriesRoute(app: FastifyInstance) {
  const cache = createTtlCache<Awaited<ReturnType<typeof readCategories>>>(
    app.runtime.config.REFERENCE_LIST_CACHE_TTL_S,
  );
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/events/categories',
    {
      schema: {
        tags: ['events'],
        summary: 'Event categories, named in the request language (English fallback)',
        querystring: z.object({ lang: z.string().max(35).optional() }),
        response: { 200: z.array(CategoryResponse), ...errorResponses(400, 429, 500) },
      },
    },
    async (req) => {
      const rows = await cache.get('event', () => readCategories(app.runtime.database.db, 'event'));
      return rows.map((r) => {
        const name = pickText(r.name, req.lang, req.lang);
        return { id: r.id, code: r.code, kind: 'event' as const, name: name?.text ?? r.code, lang: name?.lang ?? 'en' };
      });
    },
  );
}
