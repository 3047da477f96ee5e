import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, errors, langParam } from '@guest/http-kit';
import { EventSlugParams } from '../../../events/params.ts';
import { EventPageResponse } from '../../../events/schemas.ts';
import type { ReadRouteOptions } from '../../../services.ts';

/** Registered after the static event routes; the router prefers static segments anyway. */
export default async function eventPageRoute(app: FastifyInstance, { services }: ReadRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/events/:slug',
    {
      config: {
        example: {
          params: { slug: 'sunrise-yoga' },
          query: { lang: 'en' },
          response: {
            id: 1,
            slug: 'sunrise-yoga',
            title: 'Sunrise yoga on the beach',
            category: { code: 'yoga', name: 'Yoga' },
            day: '2026-11-25',
            start_time: '06:30',
            end_time: '07:30',
            ends_next_day: false,
            start_at: '2026-11-24T23:30:00Z',
            end_at: '2026-11-25T00:30:00Z',
            timezone: 'Asia/Bangkok',
            entry: 'free',
            price_minor: 0,
            currency: 'THB',
            audience: 'family',
            crowd: 'small',
            event_lang: 'multi',
            venue: { name: 'Kata beach', place_name: 'Kata' },
            place: { id: 4, slug: 'kata', name: 'Kata' },
            point: { lat: 7.8183, lon: 98.2961 },
            lang: 'en',
            translated: false,
            description: 'Gentle yoga at sunrise.',
            next_occurrences: [
              {
                day: '2026-11-25',
                start_time: '06:30',
                end_time: '07:30',
                ends_next_day: false,
                start_at: '2026-11-24T23:30:00Z',
                end_at: '2026-11-25T00:30:00Z',
              },
              {
                day: '2026-11-27',
                start_time: '06:30',
                end_time: '07:30',
                ends_next_day: false,
                start_at: '2026-11-26T23:30:00Z',
                end_at: '2026-11-27T00:30:00Z',
              },
            ],
          },
        },
      },
      schema: {
        tags: ['events'],
        summary: 'One event: its card at the next occurrence, its description and next occurrences',
        description:
          '404 `not_found` when no published event with this slug has an occurrence that has not ended. ' +
          '`categories`, `calendar`, `upcoming`, `feed` and `map` are routes, never slugs.',
        params: EventSlugParams,
        querystring: z.object({ lang: langParam }),
        response: { 200: EventPageResponse, ...errorResponses(400, 404, 429, 500) },
      },
    },
    async (req) => {
      const page = await services.events.page(req.params.slug, req.lang);
      if (!page) throw errors.notFound('No such event.');
      return page;
    },
  );
}
