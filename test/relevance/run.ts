import { readFile, writeFile } from 'node:fs/promises';
import pg from 'pg';
import pino from 'pino';
import { loadConfig } from '@guest/config';
import { ensureDatabaseExists, runMigrations } from '@guest/db';
import { createRuntime } from '@guest/runtime';
import { createServer } from '@guest/http-kit';
import { importCatalogText, reindexAll } from '@guest/indexer';
import { readApi } from '@guest/read-api';
import { BASELINE_FILE, CATALOG_FILE, evaluate, formatReport, loadJudgments, readBaseline } from './evaluate.ts';

/**
 * `npm run relevance [-- --details] [-- --write-baseline]`: loads the demo catalog of the suite
 * into its own database (`<db>_relevance`) and index prefix (`<prefix>relevance`), starts the read
 * API on a free port, asks every judged query and prints nDCG@10, MRR, the zero-result rate and
 * the place queries' precision and recall per language.
 * `--write-baseline` records the level reached in baseline.json under this engine's name (the CI
 * guard's thresholds; run it on both engines: the guard also holds them within 0.01 nDCG@10).
 */
const args = new Set(process.argv.slice(2));
const base = loadConfig(process.env);
const dbUrl = new URL(base.DATABASE_URL);
dbUrl.pathname = `${dbUrl.pathname}_relevance`;
const admin = new URL(base.DATABASE_URL);
admin.pathname = '/postgres';
const c = new pg.Client({ connectionString: admin.toString() });
await c.connect();
await c.query(`drop database if exists "${dbUrl.pathname.slice(1)}" with (force)`);
await c.end();
await ensureDatabaseExists(dbUrl.toString());
await runMigrations(dbUrl.toString());

const config = loadConfig(process.env, {
  DATABASE_URL: dbUrl.toString(),
  // Apart from the service's own indices (and from another checkout's run on the same engine).
  INDEX_PREFIX: `${base.INDEX_PREFIX}relevance`,
  LOG_LEVEL: 'silent',
  RATE_LIMIT_ADDRESS_PER_MIN: 100_000,
});
const runtime = createRuntime(config);
await importCatalogText(runtime.database, await readFile(CATALOG_FILE, 'utf8'));
await reindexAll(runtime, pino({ level: 'silent' }), { absorbOutbox: true, oldIndexGraceMs: 0 });
const app = await createServer({ runtime, apps: [readApi], logger: false });
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
try {
  const { rows } = await runtime.database.pool.query<{ id: number; external_id: string }>(
    'select id, external_id from listings',
  );
  const ids = new Map(rows.map((r) => [Number(r.id), r.external_id]));
  const report = await evaluate(url, (id) => ids.get(id), await loadJudgments());
  // The same judgments run on either engine (SEARCH_ENGINE): say which one these numbers are for.
  const engine = await runtime.search.ping();
  console.log(`engine: ${engine.engine} ${engine.version}`);
  console.log(formatReport(report, args.has('--details')));
  if (args.has('--write-baseline')) {
    const baseline = await readBaseline();
    baseline[config.SEARCH_ENGINE] = report.byLanguage;
    await writeFile(BASELINE_FILE, `${JSON.stringify(baseline, null, 2)}\n`);
    console.log(`baseline of ${config.SEARCH_ENGINE} written to ${BASELINE_FILE}`);
  }
} finally {
  await app.close();
  await runtime.close();
}
