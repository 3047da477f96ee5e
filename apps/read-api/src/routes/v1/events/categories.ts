import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { langParam } from '@guest/http-kit';
import { CategoryResponse } from '../../../categories/schemas.ts';
import type { ReadRouteOptions } from '../../../services.ts';

export default async function eventCategoriesRoute(app: FastifyInstance, { services }: ReadRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/events/categories',
    {
      config: {
        errors: ['validation_error'],
        example: {
          query: { lang: 'en' },
          response: [
            { id: 15, code: 'film', kind: 'event', name: 'Film', lang: 'en' },
            { id: 12, code: 'market', kind: 'event', name: 'Market', lang: 'en' },
          ],
        },
      },
      schema: {
        operationId: 'listEventCategories',
        tags: ['events'],
        summary: 'Event categories, named in the request language (English fallback)',
        description: 'Every event category, for the filters of the events feed; names in `lang` or English.',
        querystring: z.object({ lang: langParam }),
        response: { 200: z.array(CategoryResponse) },
      },
    },
    async (req) => services.categories.list('event', { withCounts: false, lang: req.lang }),
  );
}
