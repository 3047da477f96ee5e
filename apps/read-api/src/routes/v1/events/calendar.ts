import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '@guest/http-kit';
import { calendarParams } from '../../../events/params.ts';
import { CalendarResponse } from '../../../events/schemas.ts';
import type { ReadRouteOptions } from '../../../services.ts';

export default async function calendarRoute(app: FastifyInstance, { services, config }: ReadRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/events/calendar',
    {
      config: {
        example: {
          query: { days: 7, timezone: 'Asia/Bangkok', lang: 'en' },
          response: {
            days: [
              { date: '2026-11-24', count: 0 },
              { date: '2026-11-25', count: 1 },
            ],
            timezone: 'Asia/Bangkok',
            today: '2026-11-24',
          },
        },
      },
      schema: {
        tags: ['events'],
        summary: 'Calendar strip: distinct events per day matching the filters',
        description:
          'Counts with the same filters as the feed (rule 1). `day`, `day_from` and `day_to` are validated but not ' +
          "applied: the strip always shows the whole window from `first` (rule 2). In today's day (in `timezone`, from " +
          'the server clock) events that have already ended are not counted; other days are not cut (rule 3). Days past ' +
          'the 180-day schedule horizon count 0.',
        querystring: calendarParams(config),
        response: { 200: CalendarResponse, ...errorResponses(400, 429, 500) },
      },
    },
    async (req) => services.events.calendar(req.query),
  );
}
