import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eventFeedParams } from '../../../events/params.ts';
import { EventFeedResponse } from '../../../events/schemas.ts';
import { EVENT_EXAMPLES } from '../../../events/examples.ts';
import type { ReadRouteOptions } from '../../../services.ts';

export default async function feedRoute(app: FastifyInstance, { services, config }: ReadRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/events/feed',
    {
      config: {
        errors: ['validation_error'],
        example: {
          query: { category: 'yoga', limit: 2, lang: 'en' },
          response: {
            items: [
              {
                date: '2026-11-25',
                events: [EVENT_EXAMPLES.sunriseYoga],
              },
              {
                date: '2026-11-27',
                events: [EVENT_EXAMPLES.sunriseYogaNext],
              },
            ],
            next_cursor:
              'eyJzIjoiZXZlbnRzLWZlZWQiLCJkIjp7ImgiOiJfOU1YNEdQVXZrSlY3NV80IiwibiI6MTc5NTQ3MDIwMzUzNiwidCI6IjIwMjYtMTEtMjQiLCJhZnRlciI6WzE3OTU3Mzc2MDAwMDAsIjA2OjMwIiwxLDE3OTU3MzU4MDAwMDAsMTc5NTczOTQwMDAwMF19fQ.8uxtCk1bcO8vgYkh_R0pYWpVaYpqbO-L6GivdavG7SM',
            has_more: true,
            unmatched_terms: [],
          },
        },
      },
      schema: {
        operationId: 'getEventFeed',
        tags: ['events'],
        summary: 'By-day feed: every matching occurrence on its day, grouped per day',
        description:
          'Same filters and window as `/v1/events/upcoming`, but an event appears on every day it takes place. ' +
          'Order inside and across days: day, local start time, event id. Days never start before today (in ' +
          '`timezone`); occurrences that have already ended are left out. Paging is by `next_cursor` (keyset, no ' +
          'offsets): every occurrence once. A day cut by the page size continues as the first group of the next ' +
          'page. A feed is read as of its first page: later pages keep that instant for today, the window and what ' +
          'has already ended, so an occurrence ending, or local midnight passing, between two pages neither drops ' +
          'nor repeats an occurrence. A cursor continues only the feed it came from (same filters and window); ' +
          'otherwise 400 `validation_error` on `cursor`.',
        querystring: eventFeedParams(config),
        response: { 200: EventFeedResponse },
      },
    },
    async (req) => services.events.feed(req.query, req.lang),
  );
}
