import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { countParams } from '../../../search/params.ts';
import { CountResponse } from '../../../search/schemas.ts';
import type { ReadRouteOptions } from '../../../services.ts';

/** GET /v1/search/count (spec 4.7): the "show N results" number, without fetching documents. */
export default async function countRoute(app: FastifyInstance, { services, config }: ReadRouteOptions): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/search/count',
    {
      config: {
        errors: ['validation_error'],
        sharedAnswer: true,
        example: { query: { kind: 'stay', guests: 2, pets_allowed: true }, response: { count: 1 } },
      },
      schema: {
        operationId: 'countListings',
        tags: ['search'],
        summary: 'Number of listings matching the filters',
        description: 'Same filters and the same answer as the feed, counted by the engine without fetching documents.',
        querystring: countParams(config),
        response: { 200: CountResponse },
      },
    },
    async (req) => services.search.count(req.query),
  );
}
