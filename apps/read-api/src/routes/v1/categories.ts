import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { langParam, queryBool } from '@guest/http-kit';
import { CATEGORY_KINDS } from '@guest/catalog';
import { CategoryResponse } from '../../categories/schemas.ts';
import type { ReadRouteOptions } from '../../services.ts';

export default async function categoriesRoute(app: FastifyInstance, { services }: ReadRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/categories',
    {
      config: {
        errors: ['validation_error'],
        example: {
          query: { kind: 'experience', with_counts: true, lang: 'en' },
          response: [
            { id: 3, code: 'boat', kind: 'experience', name: 'Boat trips', lang: 'en', listings_count: 1 },
            { id: 2, code: 'cooking', kind: 'experience', name: 'Cooking', lang: 'en', listings_count: 1 },
          ],
        },
      },
      schema: {
        operationId: 'listCategories',
        tags: ['reference'],
        summary: 'Listing categories of one kind, names in the request language',
        description:
          '`with_counts=true` adds `listings_count`: published listings of that kind in the category, the same ' +
          'boundary as the feed; no other filter affects it. Event categories are at `/v1/events/categories`.',
        querystring: z.object({
          kind: z.enum(CATEGORY_KINDS).exclude(['event']),
          with_counts: queryBool.default(false),
          lang: langParam,
        }),
        response: { 200: z.array(CategoryResponse) },
      },
    },
    async (req) => services.categories.list(req.query.kind, { withCounts: req.query.with_counts, lang: req.lang }),
  );
}
