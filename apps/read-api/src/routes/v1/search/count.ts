import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '@guest/http-kit';
import type { SearchDeps } from '../../../search/context.ts';
import { buildCountRequest } from '../../../search/feed.ts';
import { filterRules, SearchFilters } from '../../../search/filters.ts';
import { CountResponse } from '../../../search/schemas.ts';

/** GET /v1/search/count (spec 4.7): the "show N results" number, without fetching documents. */
export default async function countRoute(app: FastifyInstance, opts: { deps: SearchDeps }): Promise<void> {
  const { deps } = opts;
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/search/count',
    {
      schema: {
        tags: ['search'],
        summary: 'Number of listings matching the filters',
        description: 'Same filters and the same answer as the feed, counted by the engine without fetching documents.',
        querystring: SearchFilters.superRefine(filterRules),
        response: { 200: CountResponse, ...errorResponses(400, 429, 500) },
      },
    },
    async (req) => {
      const ctx = await deps.queryContext();
      return { count: await deps.engine.count(deps.listingsIndex, buildCountRequest(req.query, ctx)) };
    },
  );
}
