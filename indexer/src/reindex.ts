import { INDEX_KINDS } from '@guest/catalog';
import type { Runtime } from '@guest/runtime';
import { createConcreteIndices, deleteOldIndices, swapAliases, type IndexSet } from './engine/aliases.ts';
import { runBulk, type BulkOp, type BulkOutcome } from './engine/bulk.ts';
import { loadEventSources, loadListingSources, loadProjectionContext } from './source/load-sources.ts';
import type { ProjectionContext } from './projection/context.ts';
import { projectListing } from './projection/listing-document.ts';
import { projectPlace } from './projection/place-document.ts';
import { projectEventOccurrences } from './projection/event-documents.ts';
import { progressBar } from './progress.ts';
import { applyChanges, type ApplyDeps, type ChangeRow } from './outbox/apply-changes.ts';
import { SWAP_LOCK_SQL } from './outbox/drain.ts';
import { applyDeps, type Logger } from './deps.ts';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ReindexOptions {
  progress?: boolean;
  /**
   * Mark the pending outbox rows whose changes the new indices already hold (every row committed
   * before the last catch-up) as done, so that no worker writes them again. For loaders that
   * import and rebuild at once (the demo loader); without it a worker applies them once more,
   * which changes nothing (external versions).
   */
  absorbOutbox?: boolean;
  /** Pause between the alias swap and deleting the old indices, for searches still on them. */
  oldIndexGraceMs?: number;
}

export interface ReindexResult {
  indices: IndexSet;
  documents: { listings: number; places: number; events: number };
  /** Changes committed while the rebuild ran, applied to the new indices before the swap, in how many rounds. */
  caughtUp: { rounds: number; changes: number };
  seconds: number;
  docsPerSecond: number;
}

/**
 * Full rebuild: fresh versioned indices filled from Postgres, brought up to date with every change
 * committed since the rebuild began, then every alias moved in one atomic call, then the old
 * indices deleted. Readers keep using the old indices until the swap, so they never see a
 * half-built one, and never an older state than the old indices served them:
 *
 * 1. The rebuild notes a Postgres snapshot before it reads anything. A change visible in that
 *    snapshot is in what it reads; any other one has an outbox row that the snapshot does not
 *    see (`catalog_outbox.xact_id`, compared with `pg_visible_in_snapshot`).
 * 2. Catch-up rounds apply those rows to the new indices (external versions, so a row applied
 *    twice or late changes nothing), each from the snapshot of the round before, until a round
 *    finds little to do.
 * 3. A last round runs under the swap lock taken exclusively (`SWAP_LOCK_SQL`): drains wait, so
 *    nothing reaches the old indices meanwhile; the new indices are refreshed and the aliases
 *    swapped in that same hold.
 * 4. Changes committed during the last round are still pending: the workers apply them after
 *    the lock is released, through the aliases, so to the new indices.
 */
export async function reindexAll(rt: Runtime, log: Logger, opts: ReindexOptions = {}): Promise<ReindexResult> {
  const started = performance.now();
  const prefix = rt.config.INDEX_PREFIX;
  // Before anything is read: changes this snapshot does not see are caught up afterwards.
  let seen = await currentSnapshot(rt);
  const ctx = await loadProjectionContext(rt.database.db);

  // Built without replicas (each document written once) and without refreshes (nobody reads
  // these indices before the swap); both are set to what they should be once filled.
  const next = await createConcreteIndices(rt.search, prefix, 0);
  log.info({ indices: next }, 'reindex started');
  for (const kind of INDEX_KINDS) await rt.search.putIndexSettings(next[kind], { index: { refresh_interval: '-1' } });
  const deps: ApplyDeps = { ...applyDeps(rt), targets: next };
  const caughtUp = { rounds: 0, changes: 0 };
  const writer = bulkWriter(rt);
  let documents: ReindexResult['documents'];
  try {
    documents = await fillIndices(rt, ctx, next, writer, opts.progress ?? false);
    await makeReadable(rt, next);
    // Workers keep writing to the old indices meanwhile: rounds until one finds little to do,
    // so that the round run while drains wait is short.
    for (let round = 0; round < CATCH_UP_ROUNDS; round++) {
      const r = await catchUp(rt, deps, seen);
      seen = r.snapshot;
      caughtUp.rounds++;
      caughtUp.changes += r.changes;
      if (r.changes <= rt.config.INDEXER_BATCH_SIZE) break;
    }
  } catch (err) {
    await writer.settled();
    // A failed rebuild leaves the live aliases untouched; only its own indices go.
    for (const kind of INDEX_KINDS) await rt.search.deleteIndex(next[kind]).catch(() => {});
    throw err;
  }
  const old = await swapUnderLock(rt, deps, seen, next, caughtUp, opts.absorbOutbox ?? false);
  await deleteOldIndices(rt.search, old, opts.oldIndexGraceMs ?? rt.config.INDEXER_OLD_INDEX_GRACE_MS);
  const seconds = (performance.now() - started) / 1000;
  const total = documents.listings + documents.places + documents.events;
  log.info({ indices: next, removed: old, documents, caughtUp, seconds }, 'reindex finished, aliases swapped');
  return { indices: next, documents, caughtUp, seconds, docsPerSecond: total / seconds };
}

type BulkWriter = ReturnType<typeof bulkWriter>;

/**
 * Documents to the new indices in whole `_bulk` requests of INDEXER_REINDEX_BULK_DOCS, up to
 * INDEXER_REINDEX_CONCURRENCY in flight: the engine indexes one while the next crosses the wire,
 * and Postgres reads and projection overlap with both. The first refused document fails the rebuild.
 */
function bulkWriter(rt: Runtime) {
  const chunk = rt.config.INDEXER_REINDEX_BULK_DOCS;
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
  return {
    chunk,
    async write(ops: BulkOp[]) {
      for (const op of ops) pending.push(op);
      while (pending.length >= chunk) await sendChunk(pending.splice(0, chunk));
    },
    /** Sends what waits and every request in flight; throws the first failure. */
    async drained() {
      if (pending.length) await sendChunk(pending.splice(0));
      await Promise.all(inFlight);
      if (failure) throw failure;
    },
    /** Waits for the requests in flight, failed or not (before the rebuild's indices are deleted). */
    settled: () => Promise.allSettled(inFlight),
  };
}

/** Every place, listing and event of Postgres projected into the new indices. */
async function fillIndices(
  rt: Runtime,
  ctx: ProjectionContext,
  next: IndexSet,
  writer: BulkWriter,
  progress: boolean,
): Promise<ReindexResult['documents']> {
  const {
    rows: [counts],
  } = await rt.database.pool.query<{ listings: string; events: string }>(
    'select (select count(*) from listings) as listings, (select count(*) from events) as events',
  );
  const totalRows = ctx.places.size + Number(counts!.listings) + Number(counts!.events);
  const bar = progressBar('reindex', { enabled: progress });
  const documents = { listings: 0, places: 0, events: 0 };
  let rowsDone = 0;
  const done = (rows: number) => {
    rowsDone += rows;
    bar.tick(rowsDone, totalRows);
  };

  const placeOps: BulkOp[] = [...ctx.places.values()].map((p) => {
    const doc = projectPlace(p, ctx);
    return { action: 'index', index: next.places, id: String(p.id), version: doc.version, doc };
  });
  await writer.write(placeOps);
  documents.places = placeOps.length;
  done(ctx.places.size);

  const db = rt.database.db;
  for await (const page of pages(
    (afterId) => loadListingSources(db, { afterId, limit: writer.chunk }),
    (s) => s.listing.id,
  )) {
    const ops: BulkOp[] = [];
    for (const src of page) {
      const doc = projectListing(src, ctx);
      if (doc) ops.push({ action: 'index', index: next.listings, id: String(doc.id), version: doc.version, doc });
    }
    await writer.write(ops);
    documents.listings += ops.length;
    done(page.length);
  }

  const eventPage = Math.max(1, Math.floor(writer.chunk / 20));
  for await (const page of pages(
    (afterId) => loadEventSources(db, { afterId, limit: eventPage }),
    (s) => s.event.id,
  )) {
    const ops: BulkOp[] = [];
    for (const src of page) {
      for (const o of projectEventOccurrences(src, ctx, rt.clock.now(), rt.config.EVENTS_HORIZON_DAYS)) {
        ops.push({ action: 'index', index: next.events, id: o.id, version: o.doc.version, doc: o.doc });
      }
    }
    await writer.write(ops);
    documents.events += ops.length;
    done(page.length);
  }

  await writer.drained();
  bar.done(`${documents.listings + documents.places + documents.events} documents`);
  return documents;
}

/**
 * Keyset pages of Postgres rows, the next page read while the caller works on the current one
 * (the engine takes a page while the next is read).
 */
async function* pages<T>(load: (afterId: number) => Promise<T[]>, idOf: (row: T) => number): AsyncGenerator<T[]> {
  let next = load(0);
  for (;;) {
    const page = await next;
    if (!page.length) return;
    next = load(page.reduce((m, r) => Math.max(m, idOf(r)), 0));
    next.catch(() => {}); // a failure surfaces at the next await, not as an unhandled rejection
    yield page;
  }
}

/** Refreshes and replicas as the live indices have them; the replicas ready before readers come. */
async function makeReadable(rt: Runtime, next: IndexSet): Promise<void> {
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
}

/**
 * The last catch-up round, the refresh and the swap with every drain held off: nothing reaches
 * the old indices between the last look at the outbox and the moment readers move. Returns the
 * indices the aliases left.
 */
async function swapUnderLock(
  rt: Runtime,
  deps: ApplyDeps,
  seen: string,
  next: IndexSet,
  caughtUp: ReindexResult['caughtUp'],
  absorbOutbox: boolean,
): Promise<string[]> {
  const client = await rt.database.pool.connect();
  let old: string[] | null = null;
  try {
    await client.query('begin');
    await client.query(SWAP_LOCK_SQL('exclusive'));
    const last = await catchUp(rt, deps, seen);
    caughtUp.rounds++;
    caughtUp.changes += last.changes;
    for (const kind of INDEX_KINDS) await rt.search.refresh(next[kind]);
    old = await swapAliases(rt.search, rt.config.INDEX_PREFIX, next);
    if (absorbOutbox) {
      await client.query(
        `update catalog_outbox set processed_at = now()
          where processed_at is null and dead_at is null
            and (xact_id is null or pg_visible_in_snapshot(xact_id, $1::pg_snapshot))`,
        [last.snapshot],
      );
    }
    await client.query('commit');
    return old;
  } catch (err) {
    await client.query('rollback').catch(() => {});
    // Not swapped: the live aliases are untouched and the new indices go. Swapped: they stay.
    if (!old) for (const kind of INDEX_KINDS) await rt.search.deleteIndex(next[kind]).catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

/** Catch-up rounds before the one run under the swap lock, at most. */
const CATCH_UP_ROUNDS = 5;
/** Outbox rows read at a time by a catch-up round. */
const CATCH_UP_PAGE = 5000;

async function currentSnapshot(rt: Runtime): Promise<string> {
  const { rows } = await rt.database.pool.query<{ snap: string }>('select pg_current_snapshot()::text as snap');
  return rows[0]!.snap;
}

/**
 * Applies to the new indices every outbox row that snapshot `since` does not see (committed
 * after it), and returns a snapshot taken before they were read: the next round starts there.
 * Rows committed while the round runs may be applied now and again next round: harmless.
 */
async function catchUp(rt: Runtime, deps: ApplyDeps, since: string): Promise<{ snapshot: string; changes: number }> {
  const snapshot = await currentSnapshot(rt);
  let changes = 0;
  for (let afterId = 0; ;) {
    const { rows } = await rt.database.pool.query<{
      id: string;
      entity: ChangeRow['entity'];
      entity_id: number;
      version: string;
    }>(
      `select id, entity, entity_id, version from catalog_outbox
        where xact_id >= pg_snapshot_xmin($1::pg_snapshot) and not pg_visible_in_snapshot(xact_id, $1::pg_snapshot)
          and id > $2
        order by id limit $3`,
      [since, afterId, CATCH_UP_PAGE],
    );
    if (!rows.length) break;
    const out = await applyChanges(
      deps,
      rows.map((r) => ({ id: Number(r.id), entity: r.entity, entityId: r.entity_id, version: Number(r.version) })),
    );
    if (out.failed.size) {
      const [id, reason] = [...out.failed][0]!;
      throw new Error(`reindex: ${out.failed.size} changes could not be caught up, first: outbox row ${id} ${reason}`);
    }
    changes += rows.length;
    afterId = Number(rows[rows.length - 1]!.id);
    if (rows.length < CATCH_UP_PAGE) break;
  }
  return { snapshot, changes };
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
