import { loadConfigOrExit } from '@guest/config';
import { ensureDatabaseExists, runMigrations } from '@guest/db';
import { runAll } from '@guest/server/run-all';
import { ensureStack } from './stack/index.ts';

/**
 * `npm run dev`: one command on a fresh clone. Brings the stack up (or finds it up), migrates,
 * loads the demo catalog when the database has none, and serves every app behind one base URL.
 */
const step = (msg: string) => process.stdout.write(`[dev] ${msg}\n`);

step('bringing up Postgres, Redis and OpenSearch');
await ensureStack();
const config = loadConfigOrExit();

step('applying migrations');
await ensureDatabaseExists(config.DATABASE_URL);
await runMigrations(config.DATABASE_URL);

const { app } = await runAll(config);
step(
  `serving on http://${config.HOST}:${app.server.address() && typeof app.server.address() === 'object' ? (app.server.address() as { port: number }).port : config.PORT}`,
);
step('docs: /docs   OpenAPI: /v1/openapi.json   health: /health');
