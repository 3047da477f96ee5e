import { writeFile } from 'node:fs/promises';
import pg from 'pg';
import pino from 'pino';
import { loadConfig } from '@guest/config';
import { todayIn } from '@guest/catalog';
import { ensureDatabaseExists, runMigrations } from '@guest/db';
import { createRuntime } from '@guest/runtime';
import { createServer } from '@guest/http-kit';
import { importCatalogText, reindexAll } from '@guest/indexer';
import { readApi } from '@guest/read-api';
import { suiteCatalogLines, suiteFacts } from './catalog.ts';
import { BASELINE_FILE, evaluate, formatReport, loadJudgments, readBaseline, type Baseline } from './evaluate.ts';

/**
 * `npm run relevance [-- --details] [-- --tags] [-- --write-baseline]`: loads the suite's catalog
 * into its own database (`<db>_relevance`) and index prefix (`<prefix>relevance`), starts the read
 * API on a free port, asks every judged query and prints, per half (tuning, held-out), nDCG@10,
 * P@10, the empty and noise rates per language, and the events list's precision and recall.
 * `--details` lists the imperfect queries of the tuning half (never of the held-out half);
 * `--tags` adds a row per query shape. `--write-baseline` records the level reached in
 * baseline.json under this engine's name (the thresholds of the CI guard; run it on both engines).
 * `--serve PORT` keeps the read API on that port afterwards, to ask it by hand (stop with Ctrl-C).
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
const today = todayIn('Asia/Bangkok', runtime.clock.now());
const lines = suiteCatalogLines(today);
await importCatalogText(runtime.database, lines.join('\n'));
await reindexAll(runtime, pino({ level: 'silent' }), { absorbOutbox: true, oldIndexGraceMs: 0 });
const app = await createServer({ runtime, apps: [readApi], logger: false });
const servePort = process.argv.indexOf('--serve');
await app.listen({ host: '127.0.0.1', port: servePort > 0 ? Number(process.argv[servePort + 1]) : 0 });
const address = app.server.address();
const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
try {
  const idsOf = async (table: string) => {
    const { rows } = await runtime.database.pool.query<{ id: number; external_id: string }>(
      `select id, external_id from ${table}`,
    );
    return new Map(rows.map((r) => [Number(r.id), r.external_id]));
  };
  const [listings, events] = await Promise.all([idsOf('listings'), idsOf('events')]);
  const report = await evaluate(
    url,
    { listing: (id) => listings.get(id), event: (id) => events.get(id) },
    suiteFacts(lines, today),
    await loadJudgments(),
  );
  // The same judgments run on either engine (SEARCH_ENGINE): say which one these numbers are for.
  const engine = await runtime.search.ping();
  console.log(`engine: ${engine.engine} ${engine.version}`);
  console.log(formatReport(report, { details: args.has('--details'), tags: args.has('--tags') }));
  if (args.has('--write-baseline')) {
    const baseline: Baseline = await readBaseline();
    baseline[config.SEARCH_ENGINE] = Object.fromEntries(
      Object.entries(report.groups).filter(([g]) => !g.includes('/tag:')),
    );
    await writeFile(BASELINE_FILE, `${JSON.stringify(baseline, null, 2)}\n`);
    console.log(`baseline of ${config.SEARCH_ENGINE} written to ${BASELINE_FILE}`);
  }
  if (servePort > 0) {
    console.log(`serving the read API on ${url} (Ctrl-C stops it)`);
    await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
  }
} finally {
  await app.close();
  await runtime.close();
}
