import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '@guest/http-kit';
import { upcomingParams } from '../../../events/params.ts';
import { UpcomingResponse } from '../../../events/schemas.ts';
import type { ReadRouteOptions } from '../../../services.ts';

export default async function upcomingRoute(app: FastifyInstance, { services, config }: ReadRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/events/upcoming',
    {
      config: {
        example: {
          query: { limit: 2, lang: 'en' },
          response: {
            items: [
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
              {
                id: 3,
                slug: 'morning-market',
                title: 'Morning market',
                category: { code: 'market', name: 'Market' },
                day: '2026-12-01',
                start_time: '08:00',
                end_time: '11:00',
                ends_next_day: false,
                start_at: '2026-12-01T01:00:00Z',
                end_at: '2026-12-01T04:00:00Z',
                timezone: 'Asia/Bangkok',
                entry: 'free',
                price_minor: 0,
                currency: 'THB',
                audience: 'family',
                crowd: 'large',
                event_lang: 'th',
                venue: { name: 'Kata square', place_name: 'Kata' },
                place: { id: 4, slug: 'kata', name: 'Kata' },
                point: { lat: 7.821, lon: 98.3 },
                lang: 'en',
                translated: true,
              },
            ],
            next_cursor:
              'eyJzIjoiZXZlbnRzLXVwY29taW5nIiwiZCI6eyJoIjoibkU5Z1ZpY3pDZUFCZlBibCIsIm4iOjE3OTU0NzAyMDMxNzMsInQiOiIyMDI2LTExLTI0IiwiayI6MTc5NjExMjAwMDAwMCwiaWQiOjN9fQ._kMCKjRj0_ghfzpjYPoA4GNG4Qx-nH6is2wgL_2ljfA',
            has_more: true,
            total: null,
          },
        },
      },
      schema: {
        tags: ['events'],
        summary: 'Upcoming events: one card per event at its nearest matching day',
        description:
          'One card per event, carrying its nearest matching occurrence (rule 1). Order: day, local start time, event ' +
          'id — the same order as the by-day feed (rule 2). Schedules are read up to the 180-day horizon (rule 3). ' +
          'Days never start before today (in `timezone`); occurrences that have already ended are left out. ' +
          'Paging is by `next_cursor` (keyset, no offsets) and exact for any number of events: every event once. ' +
          'A list is read as of its first page: later pages keep that instant for today, the window and what has ' +
          'already ended, so an occurrence ending, or local midnight passing, between two pages neither repeats ' +
          'nor skips an event. A cursor continues only the list it came from (same filters and window); ' +
          'otherwise 400 `validation_error` on `cursor`.',
        querystring: upcomingParams(config),
        response: { 200: UpcomingResponse, ...errorResponses(400, 429, 500) },
      },
    },
    async (req) => services.events.upcoming(req.query, req.lang),
  );
}
