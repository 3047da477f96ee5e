import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses, limitParam } from '@guest/http-kit';
import { EventFilterParams } from '../../../events/params.ts';
import { EventFeedResponse } from '../../../events/schemas.ts';
import { requestToday, resolveFilters } from '../../../events/scope.ts';
import { loadFeed } from '../../../events/service.ts';
import { listWindow } from '../../../events/window.ts';
import { windowDaysParam } from './upcoming.ts';

export default async function feedRoute(app: FastifyInstance) {
  const { config } = app.runtime;
  const Query = EventFilterParams.extend({
    limit: limitParam(config.SEARCH_LIMIT_DEFAULT, config.SEARCH_LIMIT_MAX).meta({
      description: `Cards per page (occurrences), 1 to ${config.SEARCH_LIMIT_MAX}; default ${config.SEARCH_LIMIT_DEFAULT}.`,
    }),
    days: windowDaysParam(config.UPCOMING_DAYS_DEFAULT, config.EVENTS_HORIZON_DAYS),
  });
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/events/feed',
    {
      schema: {
        tags: ['events'],
        summary: 'By-day feed: every matching occurrence on its day, grouped per day',
        description:
          'Same filters and window as `/v1/events/upcoming`, but an event appears on every day it takes place. ' +
          'Order inside and across days: day, local start time, event id. A day cut by the page size continues ' +
          'as the first group of the next page.',
        querystring: Query,
        response: { 200: EventFeedResponse, ...errorResponses(400, 429, 500) },
      },
    },
    async (req) => {
      const q = req.query;
      const now = app.runtime.clock.now();
      const today = requestToday(now, q);
      const filters = resolveFilters(q, config);
      const window = listWindow(q, today, config.EVENTS_HORIZON_DAYS);
      return loadFeed(app, window ? { filters, window, today, now } : null, {
        limit: q.limit,
        cursor: q.cursor,
        lang: req.lang,
      });
    },
  );
}
