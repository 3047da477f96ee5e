import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { originOf } from '../../nodes/origin.ts';
import { NodesResponse } from '../../nodes/schemas.ts';
import type { ReadRouteOptions } from '../../services.ts';

/** GET /v1/nodes (spec 4.5). */
export default async function nodesRoutes(app: FastifyInstance, { services, config }: ReadRouteOptions): Promise<void> {
  const cacheControl = `public, max-age=${config.REFERENCE_CACHE_MAX_AGE_S}`;
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/nodes',
    {
      config: {
        errors: ['validation_error'],
        example: {
          response: { origin: { api_url: 'https://api.example.com', files_url: 'https://api.example.com' }, nodes: [] },
        },
      },
      schema: {
        operationId: 'listNodes',
        tags: ['reference'],
        summary: 'The main server and the active nodes',
        description:
          'Where a client may send its requests: `origin` (the main server) and the nodes now in service. A node ' +
          'that is draining or offline is not listed.',
        response: { 200: NodesResponse },
      },
    },
    async (req, reply) => {
      const origin = originOf(config, req);
      const nodes = await services.nodes.active();
      reply.header('cache-control', cacheControl);
      return { origin, nodes };
    },
  );
}
