import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, limitParam, queryBool } from '@guest/http-kit';
import { EventFilterParams } from '../../../events/params.ts';
import { UpcomingResponse } from '../../../events/schemas.ts';
import type { ReadRouteOptions } from '../../../services.ts';

/** `days` of the upcoming list and the feed: window from today, ignored with `day` or `day_to`. */
export function windowDaysParam(def: number, max: number) {
  return z.coerce
    .number()
    .int()
    .min(1)
    .max(max)
    .default(def)
    .meta({
      description: `Window in days from today, 1 to ${max}; default ${def}. Ignored when \`day\` or \`day_to\` is given.`,
    });
}

export default async function upcomingRoute(app: FastifyInstance, { services, config }: ReadRouteOptions) {
  const Query = EventFilterParams.extend({
    limit: limitParam(config.SEARCH_LIMIT_DEFAULT, config.SEARCH_LIMIT_MAX),
    days: windowDaysParam(config.UPCOMING_DAYS_DEFAULT, config.EVENTS_HORIZON_DAYS),
    with_total: queryBool.default(false).meta({ description: 'Also count the distinct matching events (`total`).' }),
  });
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/events/upcoming',
    {
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
        querystring: Query,
        response: { 200: UpcomingResponse, ...errorResponses(400, 429, 500) },
      },
    },
    async (req) => services.events.upcoming(req.query, req.lang),
  );
}
