import type { FastifyInstance } from 'fastify';
import type { AppPlugin } from '@guest/http-kit';

/**
 * The read API: search, map, suggest, events and reference data, answered from the index.
 * Route modules live under `routes/` in folders that mirror their URL paths.
 */
async function readApiPlugin(_app: FastifyInstance): Promise<void> {}

export const readApi: AppPlugin = { name: 'read-api', plugin: readApiPlugin };
