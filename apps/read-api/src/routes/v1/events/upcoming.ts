import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { upcomingParams } from '../../../events/params.ts';
import { UpcomingResponse } from '../../../events/schemas.ts';
import { EVENT_EXAMPLES } from '../../../events/examples.ts';
import type { ReadRouteOptions } from '../../../services.ts';

export default async function upcomingRoute(app: FastifyInstance, { services, config }: ReadRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/events/upcoming',
    {
      config: {
        errors: ['validation_error'],
        example: {
          query: { limit: 2, lang: 'en' },
          response: {
            items: [EVENT_EXAMPLES.sunriseYoga, EVENT_EXAMPLES.morningMarket],
            next_cursor:
              'eyJzIjoiZXZlbnRzLXVwY29taW5nIiwiZCI6eyJoIjoibkU5Z1ZpY3pDZUFCZlBibCIsIm4iOjE3OTU0NzAyMDMxNzMsInQiOiIyMDI2LTExLTI0IiwiayI6MTc5NjExMjAwMDAwMCwiaWQiOjN9fQ._kMCKjRj0_ghfzpjYPoA4GNG4Qx-nH6is2wgL_2ljfA',
            has_more: true,
            unmatched_terms: [],
            total: null,
          },
        },
      },
      schema: {
        operationId: 'listUpcomingEvents',
        tags: ['events'],
        summary: 'Upcoming events: one card per event at its nearest matching day',
        description:
          'One card per event, carrying its nearest matching occurrence. Order: day, local start time, event ' +
          'id — the same order as the by-day feed. Schedules are read up to the horizon ' +
          `(${config.EVENTS_HORIZON_DAYS} days from today). ` +
          'Days never start before today (in `timezone`); occurrences that have already ended are left out. ' +
          'Paging is by `next_cursor` (keyset, no offsets) and exact for any number of events: every event once. ' +
          'A list is read as of its first page: later pages keep that instant for today, the window and what has ' +
          'already ended, so an occurrence ending, or local midnight passing, between two pages neither repeats ' +
          'nor skips an event. A cursor continues only the list it came from (same filters and window); ' +
          'otherwise 400 `validation_error` on `cursor`.',
        querystring: upcomingParams(config),
        response: { 200: UpcomingResponse },
      },
    },
    async (req) => services.events.upcoming(req.query, req.lang),
  );
}
