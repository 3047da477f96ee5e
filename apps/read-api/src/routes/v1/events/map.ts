import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '@guest/http-kit';
import { eventMapParams } from '../../../events/params.ts';
import { CLUSTER_MAX_ZOOM } from '../../../geo/clusters.ts';
import { EventMapResponse } from '../../../events/schemas.ts';
import type { ReadRouteOptions } from '../../../services.ts';

export default async function eventsMapRoute(app: FastifyInstance, { services, config }: ReadRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/events/map',
    {
      schema: {
        tags: ['events'],
        summary: `Events map: clusters up to zoom ${CLUSTER_MAX_ZOOM}, points beyond`,
        description:
          'Same filters and window as `/v1/events/upcoming`. Counts are distinct events. Points: one per event at ' +
          `its nearest matching occurrence, at most ${config.MAP_MAX_POINTS} (\`truncated\` when more).`,
        querystring: eventMapParams(config),
        response: { 200: EventMapResponse, ...errorResponses(400, 429, 500) },
      },
    },
    async (req) => services.events.map(req.query, req.lang),
  );
}
