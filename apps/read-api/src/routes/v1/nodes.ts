import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describeCodes, errorResponses } from '@guest/http-kit';
import { originOf } from '../../nodes/origin.ts';
import type { ReadRouteOptions } from '../../services.ts';

const apiUrl = z.string().meta({ description: 'Base URL of the API (scheme and host); `/v1/...` is appended.' });
const filesUrl = z.string().meta({ description: 'Base URL of the file cache of the same server.' });

export const OriginServer = z
  .object({ api_url: apiUrl, files_url: filesUrl })
  .meta({ id: 'OriginServer', description: 'The main server: always present, even when there are no nodes.' });

export const NodeInfo = z
  .object({
    id: z.string().meta({ description: 'Stable node id, e.g. `sg-1`.' }),
    name: z.string(),
    region: z.string().meta({ description: 'Where the node stands.' }),
    api_url: apiUrl,
    files_url: filesUrl,
    updated_at: z.iso.datetime().meta({ description: 'When the node record last changed (UTC).' }),
  })
  .meta({
    id: 'NodeInfo',
    description:
      'An API plus file cache on one server. Use its `api_url` and `files_url` together: a file address of one ' +
      'node with the API of another is not a valid pair.',
  });

export const NodesResponse = z
  .object({
    origin: OriginServer,
    nodes: z.array(NodeInfo).meta({ description: 'Only nodes in state `active`, by region and id.' }),
  })
  .meta({ id: 'NodesResponse' });

/** GET /v1/nodes (spec 4.5). */
export default async function nodesRoutes(app: FastifyInstance, { services, config }: ReadRouteOptions): Promise<void> {
  const cacheControl = `public, max-age=${config.REFERENCE_CACHE_MAX_AGE_S}`;
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/nodes',
    {
      schema: {
        tags: ['reference'],
        summary: 'The main server and the active nodes',
        description:
          'Where a client may send its requests: `origin` (the main server) and the nodes now in service. A node ' +
          'that is draining or offline is not listed. ' +
          `Errors: ${describeCodes('validation_error', 'rate_limited', 'internal_error')}.`,
        response: { 200: NodesResponse, ...errorResponses(400, 429, 500) },
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
