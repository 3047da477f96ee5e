import { exitUnlessSupportedRuntime, loadConfigOrExit } from '@guest/config';
import { ensureDatabaseExists, runMigrations } from '@guest/db';
import { createRuntime } from '@guest/runtime';
import { parseArgs } from 'node:util';
import { createLogger, loadDemoCatalog, loadDemoIntoEmptyCatalog } from '@guest/indexer';
import { DEMO_ACCOUNT, ensureDemoAccount } from '@guest/write-api/demo';
import { runAll } from '@guest/server/run-all';
import { ensureStack } from './stack/index.ts';
import { buildWeb } from './web-build.ts';
import { superviseIndexerWorker } from './dev-worker.ts';

/**
 * `npm run dev`: one command on a fresh clone. Brings the stack up (or finds it up), migrates,
 * loads the demo catalog into an empty catalog (a catalog with records stays as it is across
 * restarts; `--load-demo` imports the demo over it), starts the indexer worker with its
 * maintenance schedules as a supervised child process, and serves every app behind one base URL.
 */
const step = (msg: string) => process.stdout.write(`[dev] ${msg}\n`);
const { values: flags } = parseArgs({ options: { 'load-demo': { type: 'boolean', default: false } } });
exitUnlessSupportedRuntime();
step(`Node.js ${process.version} (${process.execPath})`);

step('bringing up Postgres, Redis and the search engine');
await ensureStack();
const config = loadConfigOrExit();

step('applying migrations');
await ensureDatabaseExists(config.DATABASE_URL);
await runMigrations(config.DATABASE_URL);

const indexerRuntime = createRuntime(config);
const log = createLogger(indexerRuntime, 'dev');
if (flags['load-demo']) {
  step('loading the demo catalog over the catalog (--load-demo): its records go back to the demo');
  const demo = await loadDemoCatalog(indexerRuntime, { log });
  step(`demo catalog: ${JSON.stringify(demo.import)}${demo.reindex ? ', indexed' : ', index already current'}`);
} else {
  const catalog = await loadDemoIntoEmptyCatalog(indexerRuntime, { log });
  if ('loaded' in catalog) {
    step(`demo catalog loaded into the empty catalog: ${JSON.stringify(catalog.loaded.import)}, indexed`);
  } else {
    step(
      `catalog kept as it is (${catalog.kept.listings} listings, ${catalog.kept.events} events)` +
        `${catalog.reindex ? ', indices rebuilt from it' : ''}; \`npm run dev -- --load-demo\` loads the demo over it`,
    );
  }
}
const demoAccount = await ensureDemoAccount(indexerRuntime.database.db, config, indexerRuntime.clock.now());
step(
  `demo account: ${DEMO_ACCOUNT.email} / ${DEMO_ACCOUNT.password}` +
    (demoAccount.created ? ` (created, with ${demoAccount.transactions} transactions)` : ' (already there)'),
);
// `indexer worker` in a process of its own, with its maintenance schedules (horizon roll,
// idempotency-key purge): started again whenever it exits, each exit logged (scripts/dev-worker.ts).
step('starting the indexer worker (its own process, started again if it exits)');
const worker = superviseIndexerWorker({ env: process.env, log });

step('building the web client (apps/web) when its sources changed');
const web = buildWeb({ ifStale: true, quiet: true });
step(web.built ? `web client built in ${web.ms} ms` : 'web client build is current');

const { app } = await runAll(config, {
  onClose: async () => {
    await worker.stop();
    await indexerRuntime.close();
  },
});
const address = app.server.address();
const port = address && typeof address === 'object' ? address.port : config.PORT;
step(
  `serving on http://${config.HOST}:${port}  (web client /, docs /docs, OpenAPI /v1/openapi.json, health /health, socket /v1/ws)`,
);
