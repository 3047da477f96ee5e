import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CLUSTER_MAX_ZOOM } from '../../../geo/clusters.ts';
import { mapParams } from '../../../search/params.ts';
import { MapResponse } from '../../../search/schemas.ts';
import type { ReadRouteOptions } from '../../../services.ts';

/** GET /v1/search/map (spec 4.7): clusters up to zoom 12, points beyond; `city_only` left off. */
export default async function mapRoute(app: FastifyInstance, { services, config }: ReadRouteOptions): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/search/map',
    {
      config: {
        errors: ['validation_error'],
        sharedAnswer: true,
        example: {
          query: { kind: 'stay', bbox: '98.2,7.7,98.5,8.1', zoom: 12 },
          response: {
            clusters: [
              {
                lat: 7.819499974139035,
                lon: 98.29899994656444,
                count: 1,
                bbox: [98.29899994656444, 7.819499974139035, 98.29899994656444, 7.819499974139035],
              },
              {
                lat: 7.847499973140657,
                lon: 98.29649996012449,
                count: 1,
                bbox: [98.29649996012449, 7.847499973140657, 98.29649996012449, 7.847499973140657],
              },
            ],
            points: [],
            truncated: false,
            total: 3,
          },
        },
      },
      schema: {
        operationId: 'searchMap',
        tags: ['search'],
        summary: 'Listings on the map: clusters or points',
        description:
          `Shared filters plus \`zoom\`. Up to zoom ${CLUSTER_MAX_ZOOM}: \`clusters\` on a grid that follows the zoom ` +
          `(count, centre, bbox). Beyond: \`points\`, at most ${config.MAP_MAX_POINTS}, with \`truncated\` true when more match. ` +
          'Objects shown at city level only (`city_only`) have no point and are left off. `total` counts the objects on the map. ' +
          'Send the visible area as `bbox`: the grid covers the box evenly, so without one (the whole world) it is coarse.',
        querystring: mapParams(config),
        response: { 200: MapResponse },
      },
    },
    async (req) => services.search.map(req.query),
  );
}
