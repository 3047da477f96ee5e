import { INDEX_KINDS } from '@guest/catalog';
import type { Runtime } from '@guest/runtime';
import { createConcreteIndices, swapAliases, type IndexSet } from './engine/aliases.ts';
import { runBulk, type BulkOp, type BulkOutcome } from './engine/bulk.ts';
import { loadEventSources, loadListingSources, loadProjectionContext } from './source/load-sources.ts';
import { projectListing } from './projection/listing-document.ts';
import { projectPlace } from './projection/place-document.ts';
import { projectEventOccurrences } from './projection/event-documents.ts';
import { progressBar } from './progress.ts';
import { signalCatalogChanges } from './outbox/signal.ts';
import { sql } from 'drizzle-orm';
import { inTransaction } from '@guest/jobs';
import type { Logger } from './deps.ts';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ReindexOptions {
  progress?: boolean;
  /**
   * Mark outbox rows up to the start of the rebuild as done. Only for a caller that knows no
   * other import was in flight (the demo loader): a concurrent transaction could hold a smaller
   * id that commits later, whose change the rebuild did not read.
   */
  absorbOutbox?: boolean;
  /** Pause between the alias swap and deleting the old indices, for searches still on them. */
  oldIndexGraceMs?: number;
}

export interface ReindexResult {
  indices: IndexSet;
  documents: { listings: number; places: number; events: number };
  seconds: number;
  docsPerSecond: number;
}

/**
 * Full rebuild: fresh versioned indices filled from Postgres, then every alias moved in one
 * atomic call, then the old indices deleted. Readers keep using the old indices until the swap,
 * so they never see a half-built one. Changes that the worker applied to the old indices during
 * the rebuild are queued again afterwards, so the new indices get them too.
 */
export async function reindexAll(rt: Runtime, log: Logger, opts: ReindexOptions = {}): Promise<ReindexResult> {
  const started = Date.now();
  const prefix = rt.config.INDEX_PREFIX;
  const chunk = rt.config.INDEXER_REINDEX_BULK_DOCS;
  const {
    rows: [mark],
  } = await rt.database.pool.query<{ max: string }>('select coalesce(max(id), 0) as max from catalog_outbox');
  const startOutboxId = Number(mark!.max);
  const ctx = await loadProjectionContext(rt.database.db);
  const {
    rows: [counts],
  } = await rt.database.pool.query<{ listings: string; events: string }>(
    'select (select count(*) from listings) as listings, (select count(*) from events) as events',
  );
  const totalRows = ctx.places.size + Number(counts!.listings) + Number(counts!.events);

  // Built without replicas (each document written once) and without refreshes (nobody reads
  // these indices before the swap); both are set to what they should be once filled.
  const next = await createConcreteIndices(rt.search, prefix, 0);
  log.info({ indices: next, startOutboxId }, 'reindex started');
  for (const kind of INDEX_KINDS) await rt.search.putIndexSettings(next[kind], { index: { refresh_interval: '-1' } });
  const bar = progressBar('reindex', { enabled: opts.progress ?? false });
  const documents = { listings: 0, places: 0, events: 0 };
  let rowsDone = 0;
  // Up to INDEXER_REINDEX_CONCURRENCY `_bulk` requests in flight: the engine indexes one while
  // the next crosses the wire, and Postgres reads and projection overlap with both.
  const inFlight = new Set<Promise<void>>();
  let failure: unknown = null;
  const send = async (ops: BulkOp[]) => {
    const out = await bulkWithBackoff(rt, ops);
    if (out.failed.length) {
      throw new Error(
        `reindex: ${out.failed.length} documents refused, first: ${out.failed[0]!.op.id} ${out.failed[0]!.reason}`,
      );
    }
  };
  const sendChunk = async (ops: BulkOp[]) => {
    while (inFlight.size >= rt.config.INDEXER_REINDEX_CONCURRENCY) await Promise.race(inFlight);
    if (failure) throw failure;
    const p: Promise<void> = send(ops).then(
      () => void inFlight.delete(p),
      (err: unknown) => {
        inFlight.delete(p);
        failure ??= err;
      },
    );
    inFlight.add(p);
  };
  // Documents wait here until they fill a whole `_bulk`: a page of 50 events makes about 1,150
  // occurrences, which sent page by page would be one full request and one of 150, twice the
  // requests (each with its fixed cost on the engine) for the larger half of the documents.
  const pending: BulkOp[] = [];
  const write = async (ops: BulkOp[]) => {
    for (const op of ops) pending.push(op);
    while (pending.length >= chunk) await sendChunk(pending.splice(0, chunk));
  };
  const drained = async () => {
    if (pending.length) await sendChunk(pending.splice(0));
    await Promise.all(inFlight);
    if (failure) throw failure;
  };

  try {
    const placeOps: BulkOp[] = [...ctx.places.values()].map((p) => {
      const doc = projectPlace(p, ctx);
      return { action: 'index', index: next.places, id: String(p.id), version: doc.version, doc };
    });
    await write(placeOps);
    documents.places = placeOps.length;
    rowsDone += ctx.places.size;
    bar.tick(rowsDone, totalRows);

    // The next page is read from Postgres while the engine takes the current one.
    let nextListings = loadListingSources(rt.database.db, { afterId: 0, limit: chunk });
    for (;;) {
      const page = await nextListings;
      if (!page.length) break;
      nextListings = loadListingSources(rt.database.db, { afterId: page[page.length - 1]!.listing.id, limit: chunk });
      nextListings.catch(() => {}); // a failure surfaces at the next await, not as an unhandled rejection
      const ops: BulkOp[] = [];
      for (const src of page) {
        const doc = projectListing(src, ctx);
        if (doc) ops.push({ action: 'index', index: next.listings, id: String(doc.id), version: doc.version, doc });
      }
      await write(ops);
      documents.listings += ops.length;
      rowsDone += page.length;
      bar.tick(rowsDone, totalRows);
    }

    const eventPage = Math.max(1, Math.floor(chunk / 20));
    let nextEvents = loadEventSources(rt.database.db, { afterId: 0, limit: eventPage });
    for (;;) {
      const page = await nextEvents;
      if (!page.length) break;
      const after = page.reduce((m, s) => Math.max(m, s.event.id), 0);
      nextEvents = loadEventSources(rt.database.db, { afterId: after, limit: eventPage });
      nextEvents.catch(() => {});
      const ops: BulkOp[] = [];
      for (const src of page) {
        for (const o of projectEventOccurrences(src, ctx, rt.clock.now(), rt.config.EVENTS_HORIZON_DAYS)) {
          ops.push({ action: 'index', index: next.events, id: o.id, version: o.doc.version, doc: o.doc });
        }
      }
      await write(ops);
      documents.events += ops.length;
      rowsDone += page.length;
      bar.tick(rowsDone, totalRows);
    }

    await drained();
    const replicas = rt.config.INDEX_REPLICAS;
    for (const kind of INDEX_KINDS) {
      await rt.search.putIndexSettings(next[kind], {
        index: { refresh_interval: '1s', number_of_replicas: replicas },
      });
      await rt.search.refresh(next[kind]);
    }
    if (replicas > 0) {
      // Readers move to these indices next: their replica copies first, as the old ones had.
      for (const kind of INDEX_KINDS) {
        await rt.search.clusterHealth({ index: next[kind], waitForStatus: 'green', timeout: '120s' });
      }
    }
  } catch (err) {
    await Promise.allSettled(inFlight);
    // A failed rebuild leaves the live aliases untouched; only its own indices go.
    for (const kind of INDEX_KINDS) await rt.search.deleteIndex(next[kind]).catch(() => {});
    throw err;
  }

  const grace = opts.oldIndexGraceMs ?? rt.config.INDEXER_OLD_INDEX_GRACE_MS;
  const old = await swapAliases(rt.search, prefix, next, grace);
  // Blocks on rows a worker holds right now, then re-queues them: whatever went to the old
  // indices after the rebuild began is written again, now to the new ones.
  // One transaction with the worker's pg-boss job for the re-queued rows.
  await inTransaction(rt.database, async (tx, jobDb) => {
    const requeued = await tx.execute(sql`update catalog_outbox set processed_at = null where id > ${startOutboxId}`);
    if (opts.absorbOutbox) {
      await tx.execute(
        sql`update catalog_outbox set processed_at = now()
             where id <= ${startOutboxId} and processed_at is null and dead_at is null`,
      );
    }
    if (requeued.rowCount) await signalCatalogChanges(jobDb, rt.database);
  });
  const seconds = (Date.now() - started) / 1000;
  const total = documents.listings + documents.places + documents.events;
  bar.done(`${total} documents`);
  log.info({ indices: next, removed: old, documents, seconds }, 'reindex finished, aliases swapped');
  return { indices: next, documents, seconds, docsPerSecond: total / seconds };
}

const BACKOFF_START_MS = 100;
const BACKOFF_ATTEMPTS = 8;

/**
 * `_bulk` whose documents the engine turned away for being full (429: its write queue is at
 * capacity) are sent again after a pause that doubles each time (0.1 s … 12.8 s); a whole
 * request answered 429 likewise. Other refusals are returned as they are.
 */
async function bulkWithBackoff(rt: Runtime, ops: BulkOp[]): Promise<BulkOutcome> {
  let pending = ops;
  const total: BulkOutcome = { failed: [], applied: 0, stale: 0 };
  for (let attempt = 0; ; attempt++) {
    let out: BulkOutcome;
    try {
      out = await runBulk(rt.search, pending);
    } catch (err) {
      const status = (err as { meta?: { statusCode?: number } })?.meta?.statusCode;
      if (status !== 429 || attempt >= BACKOFF_ATTEMPTS) throw err;
      await sleep(BACKOFF_START_MS * 2 ** attempt);
      continue;
    }
    total.applied += out.applied;
    total.stale += out.stale;
    const full = out.failed.filter((f) => f.reason.startsWith('429'));
    total.failed.push(...out.failed.filter((f) => !f.reason.startsWith('429')));
    if (!full.length) return total;
    if (attempt >= BACKOFF_ATTEMPTS) {
      total.failed.push(...full);
      return total;
    }
    pending = full.map((f) => f.op);
    await sleep(BACKOFF_START_MS * 2 ** attempt);
  }
}
