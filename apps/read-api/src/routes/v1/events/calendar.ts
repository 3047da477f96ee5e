import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { calendarParams } from '../../../events/params.ts';
import { CalendarResponse } from '../../../events/schemas.ts';
import type { ReadRouteOptions } from '../../../services.ts';

export default async function calendarRoute(app: FastifyInstance, { services, config }: ReadRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/events/calendar',
    {
      config: {
        errors: ['validation_error'],
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
        operationId: 'getEventCalendar',
        tags: ['events'],
        summary: 'Calendar strip: distinct events per day matching the filters',
        description:
          'Counts with the same filters as the feed. `day`, `day_from` and `day_to` are validated but not ' +
          "applied: the strip always shows the whole window from `first`. In today's day (in `timezone`, from " +
          'the server clock) events that have already ended are not counted; other days are not cut. Days past ' +
          `the schedule horizon (${config.EVENTS_HORIZON_DAYS} days from today) count 0.`,
        querystring: calendarParams(config),
        response: { 200: CalendarResponse },
      },
    },
    async (req) => services.events.calendar(req.query),
  );
}
