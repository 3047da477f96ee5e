import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses } from '@guest/http-kit';
import { EventFilterParams } from '../../../events/params.ts';
import { EventMapResponse } from '../../../events/schemas.ts';
import type { ReadRouteOptions } from '../../../services.ts';
import { windowDaysParam } from './upcoming.ts';

export default async function eventsMapRoute(app: FastifyInstance, { services, config }: ReadRouteOptions) {
  const Query = EventFilterParams.extend({
    zoom: z.coerce
      .number()
      .int()
      .min(0)
      .max(22)
      .meta({ description: 'Map zoom: up to 12 clusters, beyond that points.' }),
    days: windowDaysParam(config.UPCOMING_DAYS_DEFAULT, config.EVENTS_HORIZON_DAYS),
  });
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/events/map',
    {
      schema: {
        tags: ['events'],
        summary: 'Events map: clusters up to zoom 12, points beyond',
        description:
          'Same filters and window as `/v1/events/upcoming`. Counts are distinct events. Points: one per event at ' +
          `its nearest matching occurrence, at most ${config.MAP_MAX_POINTS} (\`truncated\` when more).`,
        querystring: Query,
        response: { 200: EventMapResponse, ...errorResponses(400, 429, 500) },
      },
    },
    async (req) => services.events.map(req.query, req.lang),
  );
}
