import type { FastifyInstance } from 'fastify';
import type { AppPlugin } from '@guest/http-kit';

/**
 * The write API: accounts, sessions, profile and files, owned in Postgres.
 * Route modules live under `routes/` in folders that mirror their URL paths.
 */
async function writeApiPlugin(_app: FastifyInstance): Promise<void> {}

export const writeApi: AppPlugin = { name: 'write-api', plugin: writeApiPlugin };
