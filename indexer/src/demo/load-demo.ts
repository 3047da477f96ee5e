import { aliasName, todayIn } from '@guest/catalog';
import type { Runtime } from '@guest/runtime';
import { CatalogImportError, importCatalogRecords, type ImportStats } from '../import/import-catalog.ts';
import { parseCatalogNdjson } from '../import/parse-ndjson.ts';
import { ensureIndices } from '../engine/aliases.ts';
import { reindexAll, type ReindexResult } from '../reindex.ts';
import { progressBar } from '../progress.ts';
import { createLogger, type Logger } from '../deps.ts';
import { demoRecordCount, generateDemoCatalog, type DemoOptions } from './generate-demo.ts';

export interface LoadDemoResult {
  import: ImportStats;
  reindex: ReindexResult | null;
}

/** Demo records as NDJSON lines: the very text `catalog import` would read from a file. */
export function* demoNdjsonLines(opts: DemoOptions): Generator<string> {
  for (const r of generateDemoCatalog(opts)) yield JSON.stringify(r);
}

/**
 * Generates the demo catalog, imports it through the normal import path (validation, upsert,
 * outbox) and builds the indices, with progress on stderr. Running it again the same day changes
 * nothing and skips the rebuild when the index already holds the listings. Into a catalog that
 * was changed since, it puts the demo's records back as the demo has them (an import upserts):
 * `npm run dev` calls `loadDemoIntoEmptyCatalog` instead.
 */
export async function loadDemoCatalog(
  rt: Runtime,
  opts: { listings?: number; events?: number; seed?: number; progress?: boolean; log?: Logger } = {},
): Promise<LoadDemoResult> {
  const log = opts.log ?? createLogger(rt, 'demo');
  const demo: DemoOptions = {
    listings: opts.listings ?? rt.config.DEMO_LISTINGS,
    events: opts.events ?? rt.config.DEMO_EVENTS,
    seed: opts.seed ?? rt.config.DEMO_SEED,
    today: todayIn('Asia/Bangkok', rt.clock.now()),
  };
  const total = demoRecordCount(demo);
  const show = opts.progress ?? true;
  const gen = progressBar('demo: generate+validate', { enabled: show });
  let n = 0;
  const lines = (function* () {
    for (const l of demoNdjsonLines(demo)) {
      if (++n % 1000 === 0) gen.tick(n, total);
      yield l;
    }
  })();
  const parsed = parseCatalogNdjson(lines);
  gen.done();
  if (parsed.errors.length) throw new CatalogImportError(parsed.errors);

  const imp = progressBar('demo: import', { enabled: show });
  const stats = await importCatalogRecords(rt.database, parsed.records, {
    batchSize: rt.config.CATALOG_IMPORT_BATCH,
    onProgress: (d, t) => imp.tick(d, t),
  });
  imp.done();
  log.info({ demo, import: stats }, 'demo catalog imported');

  await ensureIndices(rt.search, rt.config.INDEX_PREFIX, rt.config.INDEX_REPLICAS);
  const indexed = await rt.search.count(aliasName(rt.config.INDEX_PREFIX, 'listings'), { query: { match_all: {} } });
  if (stats.outboxRows === 0 && indexed > 0) {
    log.info({ indexed }, 'demo catalog unchanged and indexed: no rebuild');
    return { import: stats, reindex: null };
  }
  // The import above is the only writer here, so the rebuild may absorb its outbox rows.
  const reindex = await reindexAll(rt, log, { progress: show, absorbOutbox: true, oldIndexGraceMs: 0 });
  return { import: stats, reindex };
}

export type DevCatalogResult =
  | { loaded: LoadDemoResult }
  | { kept: { listings: number; events: number; places: number }; reindex: ReindexResult | null };

/**
 * What `npm run dev` does at start: the demo catalog only into an empty catalog (no place, listing
 * or event). A catalog with records stays as it is, whatever changed in it (retitles, unpublished
 * listings, its own imports); its indices are rebuilt from it only when they hold no listing
 * (a fresh `INDEX_PREFIX`, an engine wiped). Pending changes are the worker's.
 */
export async function loadDemoIntoEmptyCatalog(
  rt: Runtime,
  opts: Parameters<typeof loadDemoCatalog>[1] = {},
): Promise<DevCatalogResult> {
  const {
    rows: [held],
  } = await rt.database.pool.query<{ listings: number; events: number; places: number; published: number }>(
    `select (select count(*)::int from listings) as listings, (select count(*)::int from events) as events,
            (select count(*)::int from places) as places,
            (select count(*)::int from listings where status = 'published') as published`,
  );
  const { published, ...kept } = held!;
  if (kept.listings + kept.events + kept.places === 0) return { loaded: await loadDemoCatalog(rt, opts) };
  const log = opts.log ?? createLogger(rt, 'demo');
  await ensureIndices(rt.search, rt.config.INDEX_PREFIX, rt.config.INDEX_REPLICAS);
  const indexed = await rt.search.count(aliasName(rt.config.INDEX_PREFIX, 'listings'), { query: { match_all: {} } });
  if (indexed > 0 || published === 0) return { kept, reindex: null };
  log.info({ catalog: kept }, 'catalog kept; its indices hold no listing: rebuilding them from it');
  const reindex = await reindexAll(rt, log, { progress: opts.progress ?? true, oldIndexGraceMs: 0 });
  return { kept, reindex };
}
