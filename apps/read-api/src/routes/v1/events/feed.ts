import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '@guest/http-kit';
import { eventFeedParams } from '../../../events/params.ts';
import { EventFeedResponse } from '../../../events/schemas.ts';
import type { ReadRouteOptions } from '../../../services.ts';

export default async function feedRoute(app: FastifyInstance, { services, config }: ReadRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/events/feed',
    {
      config: {
        example: {
          query: { category: 'yoga', limit: 2, lang: 'en' },
          response: {
            items: [
              {
                date: '2026-11-25',
                events: [
                  {
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
                  },
                ],
              },
              {
                date: '2026-11-27',
                events: [
                  {
                    id: 1,
                    slug: 'sunrise-yoga',
                    title: 'Sunrise yoga on the beach',
                    category: { code: 'yoga', name: 'Yoga' },
                    day: '2026-11-27',
                    start_time: '06:30',
                    end_time: '07:30',
                    ends_next_day: false,
                    start_at: '2026-11-26T23:30:00Z',
                    end_at: '2026-11-27T00:30:00Z',
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
                  },
                ],
              },
            ],
            next_cursor:
              'eyJzIjoiZXZlbnRzLWZlZWQiLCJkIjp7ImgiOiJfOU1YNEdQVXZrSlY3NV80IiwibiI6MTc5NTQ3MDIwMzUzNiwidCI6IjIwMjYtMTEtMjQiLCJhZnRlciI6WzE3OTU3Mzc2MDAwMDAsIjA2OjMwIiwxLDE3OTU3MzU4MDAwMDAsMTc5NTczOTQwMDAwMF19fQ.8uxtCk1bcO8vgYkh_R0pYWpVaYpqbO-L6GivdavG7SM',
            has_more: true,
          },
        },
      },
      schema: {
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
        response: { 200: EventFeedResponse, ...errorResponses(400, 429, 500) },
      },
    },
    async (req) => services.events.feed(req.query, req.lang),
  );
}
