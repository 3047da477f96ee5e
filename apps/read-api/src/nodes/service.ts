import { asc, eq } from 'drizzle-orm';
import { schema, type Db } from '@guest/db';

export interface NodesServiceDeps {
  db: Db;
}

export type NodesService = ReturnType<typeof createNodesService>;

/** The nodes of spec 4.5: API plus file cache servers, read from the `nodes` table. */
export function createNodesService(deps: NodesServiceDeps) {
  return {
    /** Nodes now in service (state `active`), by region and id. */
    async active() {
      const n = schema.nodes;
      const rows = await deps.db.select().from(n).where(eq(n.state, 'active')).orderBy(asc(n.region), asc(n.id));
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        region: r.region,
        api_url: r.apiUrl.replace(/\/+$/, ''),
        files_url: r.filesUrl.replace(/\/+$/, ''),
        updated_at: r.updatedAt.toISOString(),
      }));
    },
  };
}
