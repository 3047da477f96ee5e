import { parseArgs } from 'node:util';
import pg from 'pg';
import { loadConfig } from '@guest/config';
import { ensureDatabaseExists, runMigrations } from '@guest/db';
import { createRuntime, fixedClock } from '@guest/runtime';
import { aliasName, INDEX_KINDS, indexPattern, type IndexKind, todayIn } from '@guest/catalog';
import {
  createLogger,
  ensureIndices,
  importCatalogRecords,
  importCatalogText,
  parseCatalogNdjson,
  reindexAll,
  startOutboxWorker,
  verifyIndex,
} from '@guest/indexer';
import { demoNdjsonLines } from '../indexer/src/demo/load-demo.ts';
import { indexBody } from '../indexer/src/engine/index-bodies.ts';
import { bulkBody, type BulkOp } from '../indexer/src/engine/bulk.ts';
import { loadEventSources, loadListingSources, loadProjectionContext } from '../indexer/src/source/load-sources.ts';
import { projectListing } from '../indexer/src/projection/listing-document.ts';
import { projectPlace } from '../indexer/src/projection/place-document.ts';
import { projectEventOccurrences } from '../indexer/src/projection/event-documents.ts';
import { progressBar } from '../indexer/src/progress.ts';
import { percentile } from './lib.ts';

/**
 * `npm run bench:indexer -- --listings 100000 --events 5000 --updates 200 [--rounds 2]`
 *
 * In a database and index prefix of its own: imports the demo catalog, then prints
 *  1. full reindex throughput (documents/s: read Postgres, project, _bulk, swap aliases),
 *  2. raw _bulk throughput of the very same documents (already projected, same batch size,
 *     same mappings) in the same run, and the ratio of the two; both in turns, `--rounds` times,
 *     the ratio over all rounds, after one raw pass that only warms the engine up,
 *  3. change-to-visible latency p50/p99 over single updates through the normal path
 *     (import of one changed record → outbox → worker → _bulk → refresh → visible to a search).
 */
const { values } = parseArgs({
  options: {
    listings: { type: 'string', default: '100000' },
    events: { type: 'string', default: '5000' },
    updates: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '2' },
    keep: { type: 'boolean', default: false },
  },
});
const listings = Number(values.listings);
const events = Number(values.events);
const updates = Number(values.updates);
const rounds = Number(values.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error('--rounds must be a positive integer');

const base = loadConfig({ ...process.env, APP_ENV: process.env.APP_ENV ?? 'development' });
const dbUrl = new URL(base.DATABASE_URL);
// Named after the environment's database and index prefix, so that benches of two checkouts on
// one machine stay apart.
const dbName = `${dbUrl.pathname.slice(1)}_bench_${process.pid}`;
dbUrl.pathname = `/${dbName}`;
await ensureDatabaseExists(dbUrl.toString());
await runMigrations(dbUrl.toString());
const config = loadConfig(process.env, {
  DATABASE_URL: dbUrl.toString(),
  INDEX_PREFIX: `${base.INDEX_PREFIX.replace(/-+$/, '')}-bench${process.pid}`,
  LOG_LEVEL: 'warn',
  INDEXER_POLL_MS: 1000,
});
// One instant for the whole run: event occurrences are projected up to a horizon from "now", so
// an occurrence that ends between the raw side's projection and a reindex would make the two
// sides hold different documents (seen once: 213,204 against 213,210), and verify would differ too.
const rt = createRuntime(config, { clock: fixedClock(new Date()) });
const log = createLogger(rt);
const say = (m: string) => process.stderr.write(`[bench] ${m}\n`);
const rows: Array<[string, string]> = [];

try {
  say(`demo catalog: ${listings} listings, ${events} events`);
  const today = todayIn('Asia/Bangkok', new Date());
  const t0 = Date.now();
  const parsed = parseCatalogNdjson(demoNdjsonLines({ listings, events, seed: 42, today }));
  if (parsed.errors.length) throw new Error(parsed.errors.slice(0, 5).join('\n'));
  const bar = progressBar('import');
  await importCatalogRecords(rt.database, parsed.records, {
    batchSize: config.CATALOG_IMPORT_BATCH,
    onProgress: (d, t) => bar.tick(d, t),
  });
  bar.done();
  const importS = (Date.now() - t0) / 1000;
  rows.push([
    'import (validate + write + outbox)',
    `${parsed.records.length} records in ${importS.toFixed(1)} s = ${Math.round(parsed.records.length / importS)} records/s`,
  ]);

  // The raw side's documents: projected once beforehand, so only the engine is timed there.
  const ctx = await loadProjectionContext(rt.database.db);
  const ops: Array<{ kind: IndexKind; id: string; version: number; doc: unknown }> = [];
  for (const p of ctx.places.values()) {
    const doc = projectPlace(p, ctx);
    ops.push({ kind: 'places', id: String(p.id), version: doc.version, doc });
  }
  for (let after = 0; ;) {
    const page = await loadListingSources(rt.database.db, { afterId: after, limit: 2000 });
    if (!page.length) break;
    after = page[page.length - 1]!.listing.id;
    for (const src of page) {
      const doc = projectListing(src, ctx);
      if (doc) ops.push({ kind: 'listings', id: String(doc.id), version: doc.version, doc });
    }
  }
  for (let after = 0; ;) {
    const page = await loadEventSources(rt.database.db, { afterId: after, limit: 200 });
    if (!page.length) break;
    after = page.reduce((m, s) => Math.max(m, s.event.id), after);
    for (const src of page) {
      for (const o of projectEventOccurrences(src, ctx, rt.clock.now(), config.EVENTS_HORIZON_DAYS)) {
        ops.push({ kind: 'events', id: o.id, version: o.doc.version, doc: o.doc });
      }
    }
  }

  /** Raw `_bulk` of the same documents into fresh indices with the same mappings and batches. */
  const rawBulk = async (round: number): Promise<number> => {
    const raw = {} as Record<IndexKind, string>;
    const stamp = Date.now();
    for (const kind of INDEX_KINDS) {
      raw[kind] = `${aliasName(config.INDEX_PREFIX, kind)}-raw-${stamp}`;
      await rt.search.createIndex(raw[kind], indexBody(kind, 0));
      await rt.search.putIndexSettings(raw[kind], { index: { refresh_interval: '-1' } });
    }
    const chunk = config.INDEXER_REINDEX_BULK_DOCS;
    const bodies: unknown[][] = [];
    for (let i = 0; i < ops.length; i += chunk) {
      bodies.push(
        bulkBody(
          ops
            .slice(i, i + chunk)
            .map((o): BulkOp => ({ action: 'index', index: raw[o.kind], id: o.id, version: o.version, doc: o.doc })),
        ),
      );
    }
    const rawBar = progressBar(`raw _bulk ${round}`);
    const t0 = Date.now();
    let sent = 0;
    // As many requests in flight as the reindex keeps (INDEXER_REINDEX_CONCURRENCY): the engine's
    // own throughput for these documents, the bar the reindex is held to.
    let nextBody = 0;
    const sender = async () => {
      while (nextBody < bodies.length) {
        const body = bodies[nextBody++]!;
        const res = await rt.search.bulk(body);
        if (res.errors) {
          const bad = res.items.map((it) => Object.values(it)[0]!).find((r) => r.error);
          throw new Error(`raw bulk had errors, first: ${bad?.status} ${bad?.error?.type} ${bad?.error?.reason}`);
        }
        sent += body.length / 2;
        rawBar.tick(sent, ops.length);
      }
    };
    await Promise.all(Array.from({ length: config.INDEXER_REINDEX_CONCURRENCY }, sender));
    for (const kind of INDEX_KINDS) await rt.search.refresh(raw[kind]);
    const seconds = (Date.now() - t0) / 1000;
    rawBar.done();
    for (const kind of INDEX_KINDS) await rt.search.deleteIndex(raw[kind]);
    return seconds;
  };

  // Both sides in turns, so that neither has a noisy minute to itself. The engine's JIT warms up
  // first on a raw pass that is not counted: on an engine just started, the first side timed took
  // half as long again (32 s against 21 s for the same reindex), and that was always the reindex.
  const warmS = await rawBulk(0);
  rows.push(['warm-up: raw _bulk, not counted', `${ops.length} docs in ${warmS.toFixed(1)} s`]);
  await ensureIndices(rt.search, config.INDEX_PREFIX, config.INDEX_REPLICAS);
  let reDocsAll = 0;
  let reSecondsAll = 0;
  let rawSecondsAll = 0;
  for (let round = 1; round <= rounds; round++) {
    // 1. Full reindex through the real code path.
    const re = await reindexAll(rt, log, { progress: true, absorbOutbox: true, oldIndexGraceMs: 0 });
    const reDocs = re.documents.listings + re.documents.places + re.documents.events;
    if (reDocs !== ops.length) throw new Error(`the reindex wrote ${reDocs} documents, the raw side has ${ops.length}`);
    // 2. Raw _bulk of the same documents.
    const rawS = await rawBulk(round);
    reDocsAll += reDocs;
    reSecondsAll += re.seconds;
    rawSecondsAll += rawS;
    rows.push([
      `round ${round}: full reindex`,
      `${reDocs} docs in ${re.seconds.toFixed(1)} s = ${Math.round(re.docsPerSecond)} docs/s (${JSON.stringify(re.documents)})`,
    ]);
    rows.push([
      `round ${round}: raw _bulk, same documents, ${config.INDEXER_REINDEX_CONCURRENCY} in flight`,
      `${ops.length} docs in ${rawS.toFixed(1)} s = ${Math.round(ops.length / rawS)} docs/s, reindex / raw ${((rawS / re.seconds) * 100).toFixed(0)} %`,
    ]);
  }
  rows.push([
    `reindex / raw _bulk, ${rounds} rounds`,
    `${((reDocsAll / reSecondsAll / ((ops.length * rounds) / rawSecondsAll)) * 100).toFixed(0)} % (${Math.round(reDocsAll / reSecondsAll)} against ${Math.round((ops.length * rounds) / rawSecondsAll)} docs/s)`,
  ]);

  // 3. Change-to-visible latency over single updates through the normal change flow.
  const worker = await startOutboxWorker(rt, log);
  const sample = await rt.database.pool.query<{ id: number; external_id: string }>(
    `select id, external_id from listings where status = 'published' order by id limit $1`,
    [updates],
  );
  const lines = new Map<string, string>();
  for (const l of parsed.records) {
    if (l.record.type === 'listing') lines.set(l.record.external_id, JSON.stringify(l.record));
  }
  const listingsAlias = aliasName(config.INDEX_PREFIX, 'listings');
  const latencies: number[] = [];
  const latBar = progressBar('change-to-visible');
  for (const [i, row] of sample.rows.entries()) {
    const rec = JSON.parse(lines.get(row.external_id)!);
    const newPrice = rec.price.amount_minor + 100 + i;
    rec.price.amount_minor = newPrice;
    const started = performance.now();
    await importCatalogText(rt.database, JSON.stringify(rec));
    for (;;) {
      const n = await rt.search.count(listingsAlias, {
        query: { bool: { filter: [{ term: { id: row.id } }, { term: { price_minor: newPrice } }] } },
      });
      if (n === 1) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    latencies.push(performance.now() - started);
    latBar.tick(i + 1, sample.rows.length);
  }
  latBar.done();
  await worker.stop();
  const pct = (p: number) => percentile(latencies, p / 100);
  rows.push([
    `change-to-visible (${latencies.length} single updates)`,
    `p50 ${pct(50).toFixed(0)} ms, p99 ${pct(99).toFixed(0)} ms, max ${Math.max(...latencies).toFixed(0)} ms (index refresh_interval 1s)`,
  ]);

  const report = await verifyIndex(rt);
  rows.push(['verify after the run', `drift ${report.drift}`]);

  const width = Math.max(...rows.map(([k]) => k.length));
  process.stdout.write(
    `\nindexer benchmark: ${listings} listings, ${events} events, ${(await import('node:os')).cpus().length} cores\n`,
  );
  for (const [k, v] of rows) process.stdout.write(`  ${k.padEnd(width)}  ${v}\n`);
} finally {
  if (!values.keep) {
    await rt.search
      .deleteIndex(indexPattern(config.INDEX_PREFIX))
      .catch((err: unknown) => say(`could not delete the bench indices: ${String(err)}`));
  }
  await rt.close();
  if (!values.keep) {
    const admin = new URL(base.DATABASE_URL);
    admin.pathname = '/postgres';
    const c = new pg.Client({ connectionString: admin.toString() });
    await c.connect();
    await c.query(`drop database if exists "${dbName}" with (force)`);
    await c.end();
  }
}
