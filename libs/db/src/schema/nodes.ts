import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Nodes (spec 4.5): an API plus file cache on one server, close to a group of guests. Each has a
 * pair of addresses chosen together: `api_url` for `/v1/...` and `files_url` for files. Only nodes
 * in state `active` are offered to clients; `draining` ones finish their work and take no new
 * clients; `offline` ones are kept for the record. Rows are written by operations, not by this API.
 */
export const NODE_STATES = ['active', 'draining', 'offline'] as const;

export const nodes = pgTable(
  'nodes',
  {
    /** Operator-chosen, stable, e.g. `sg-1`. */
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    /** Where the node stands, e.g. `ap-southeast-1` or `Singapore`. */
    region: text('region').notNull(),
    state: text('state', { enum: NODE_STATES }).notNull().default('offline'),
    apiUrl: text('api_url').notNull(),
    filesUrl: text('files_url').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('nodes_state_check', sql`${t.state} in ('active', 'draining', 'offline')`),
    index('nodes_state_idx').on(t.state),
  ],
);
