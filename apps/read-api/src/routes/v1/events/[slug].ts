import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errors, langParam } from '@guest/http-kit';
import { EventSlugParams } from '../../../events/params.ts';
import { EventPageResponse } from '../../../events/schemas.ts';
import { EVENT_EXAMPLES } from '../../../events/examples.ts';
import type { ReadRouteOptions } from '../../../services.ts';

/** Registered after the static event routes; the router prefers static segments anyway. */
export default async function eventPageRoute(app: FastifyInstance, { services }: ReadRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/events/:slug',
    {
      config: {
        errors: ['validation_error', 'not_found'],
        example: {
          params: { slug: 'sunrise-yoga' },
          query: { lang: 'en' },
          response: EVENT_EXAMPLES.sunriseYogaPage,
        },
      },
      schema: {
        operationId: 'getEventBySlug',
        tags: ['events'],
        summary: 'One event: its card at the next occurrence, its description and next occurrences',
        description:
          '404 `not_found` when no published event with this slug has an occurrence that has not ended. ' +
          '`categories`, `calendar`, `upcoming`, `feed` and `map` are routes, never slugs.',
        params: EventSlugParams,
        querystring: z.object({ lang: langParam }),
        response: { 200: EventPageResponse },
      },
    },
    async (req) => {
      const page = await services.events.page(req.params.slug, req.lang);
      if (!page) throw errors.notFound('No such event.');
      return page;
    },
  );
}
