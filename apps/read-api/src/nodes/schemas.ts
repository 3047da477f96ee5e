import { z } from 'zod';

/** Shapes of `/v1/nodes` (spec 4.5). */

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
