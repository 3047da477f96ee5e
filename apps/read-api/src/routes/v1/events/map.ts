import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eventMapParams } from '../../../events/params.ts';
import { CLUSTER_MAX_ZOOM } from '../../../geo/clusters.ts';
import { EventMapResponse } from '../../../events/schemas.ts';
import type { ReadRouteOptions } from '../../../services.ts';

export default async function eventsMapRoute(app: FastifyInstance, { services, config }: ReadRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/events/map',
    {
      config: {
        errors: ['validation_error'],
        example: {
          query: { zoom: 11, bbox: '98.2,7.7,98.5,8.1', lang: 'en' },
          response: {
            clusters: [
              {
                lat: 7.818827761802822,
                lon: 98.29679441638291,
                count: 4,
                bbox: [98.29609997570515, 7.818299978971481, 98.29999999143183, 7.820999999530613],
              },
              {
                lat: 7.895049965009093,
                lon: 98.29654995817691,
                count: 3,
                bbox: [98.29499993473291, 7.892999961040914, 98.29799998551607, 7.896099966019392],
              },
            ],
            points: [],
            truncated: false,
            total: 7,
          },
        },
      },
      schema: {
        operationId: 'getEventMap',
        tags: ['events'],
        summary: `Events map: clusters up to zoom ${CLUSTER_MAX_ZOOM}, points beyond`,
        description:
          'Same filters and window as `/v1/events/upcoming`. Counts are distinct events. Points: one per event at ' +
          `its nearest matching occurrence, at most ${config.MAP_MAX_POINTS} (\`truncated\` when more).`,
        querystring: eventMapParams(config),
        response: { 200: EventMapResponse },
      },
    },
    async (req) => services.events.map(req.query, req.lang),
  );
}
