import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '@guest/http-kit';
import type { ListingDocument } from '@guest/catalog';
import type { SearchDeps } from '../../../search/context.ts';
import { filterRules, SearchFilters } from '../../../search/filters.ts';
import {
  buildClusterRequest,
  buildPointsRequest,
  buildSampledPointsRequest,
  CLUSTER_MAX_ZOOM,
  parseClusters,
  samplePoints,
  toMapPoint,
  type POINT_SOURCE,
} from '../../../search/map.ts';
import { MapResponse } from '../../../search/schemas.ts';

/** GET /v1/search/map (spec 4.7): clusters up to zoom 12, points beyond; `city_only` left off. */
export default async function mapRoute(app: FastifyInstance, opts: { deps: SearchDeps }): Promise<void> {
  const { deps } = opts;
  const { config } = app.runtime;
  const Query = SearchFilters.extend({
    zoom: z.coerce
      .number()
      .int()
      .min(0)
      .max(22)
      .meta({ description: `Map zoom 0 to 22: up to ${CLUSTER_MAX_ZOOM} clusters, beyond that points.` }),
  }).superRefine(filterRules);

  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/search/map',
    {
      schema: {
        tags: ['search'],
        summary: 'Listings on the map: clusters or points',
        description:
          `Shared filters plus \`zoom\`. Up to zoom ${CLUSTER_MAX_ZOOM}: \`clusters\` on a grid that follows the zoom ` +
          `(count, centre, bbox). Beyond: \`points\`, at most ${config.MAP_MAX_POINTS}, with \`truncated\` true when more match. ` +
          'Objects shown at city level only (`city_only`) have no point and are left off. `total` counts the objects on the map. ' +
          'Send the visible area as `bbox`: the grid covers the box evenly, so without one (the whole world) it is coarse.',
        querystring: Query,
        response: { 200: MapResponse, ...errorResponses(400, 429, 500) },
      },
    },
    async (req) => {
      const { zoom, ...filters } = req.query;
      const ctx = await deps.queryContext();
      const cap = config.MAP_MAX_POINTS;
      if (zoom <= CLUSTER_MAX_ZOOM) {
        const res = await deps.engine.search(deps.listingsIndex, buildClusterRequest(filters, ctx, zoom, cap));
        const { clusters, truncated } = parseClusters(res.aggregations, cap);
        return { clusters, points: [], total: res.total, truncated };
      }
      const res = await deps.engine.search<Pick<ListingDocument, (typeof POINT_SOURCE)[number]>>(
        deps.listingsIndex,
        buildPointsRequest(filters, ctx, cap),
      );
      const truncated = res.total > res.hits.length;
      let docs = res.hits.map((h) => h._source);
      if (truncated) {
        const sampled = await deps.engine.search(
          deps.listingsIndex,
          buildSampledPointsRequest(filters, ctx, zoom, cap),
        );
        docs = samplePoints(sampled.aggregations, docs, cap);
      }
      return { clusters: [], points: docs.map(toMapPoint), total: res.total, truncated };
    },
  );
}
