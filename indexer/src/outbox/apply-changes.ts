import type pg from 'pg';
import type { Db } from '@guest/db';
import type { SearchEngine } from '@guest/search-engine';
import { aliasName, type IndexKind } from '@guest/catalog';
import { runBulk, type BulkOp } from '../engine/bulk.ts';
import {
  loadEventSources,
  loadListingSources,
  loadProjectionContext,
  listingIdsWhere,
  eventIdsWhere,
  subtreeIds,
} from '../source/load-sources.ts';
import { listingVersion, projectListing } from '../projection/listing-document.ts';
import { projectPlace } from '../projection/place-document.ts';
import { eventVersion, projectEventOccurrences } from '../projection/event-documents.ts';
import type { ProjectionContext } from '../projection/context.ts';

export interface ChangeRow {
  id: number;
  entity: 'listing' | 'place' | 'event' | 'category' | 'fx' | 'currency' | 'amenity';
  entityId: number;
  version: number;
}

export interface ApplyDeps {
  db: Db;
  search: SearchEngine;
  indexPrefix: string;
  now: () => Date;
  horizonDays: number;
  chunkSize: number;
  /** Tells readers that reference data changed (after the changes are in the index). */
  publishReferenceChange?: (entities: string[]) => Promise<void>;
  /**
   * Where documents go: the aliases (what readers see) unless named here. A rebuild brings its
   * fresh indices up to date this way before readers are moved to them (`reindexAll`).
   */
  targets?: Record<IndexKind, string>;
}

const targetOf = (deps: ApplyDeps, kind: IndexKind) => deps.targets?.[kind] ?? aliasName(deps.indexPrefix, kind);

export interface ApplyResult {
  /** Outbox row id -> why one of the documents it caused could not be written. */
  failed: Map<number, string>;
  documents: number;
}

type Causes = Map<number, Set<number>>;
const addCause = (m: Causes, key: number, rowId: number) => {
  const s = m.get(key);
  if (s) s.add(rowId);
  else m.set(key, new Set([rowId]));
};

function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Turns outbox rows into index writes. A listing row rewrites that listing; a place row rewrites
 * the place, the places below it and every listing and event there (they copy its names); a
 * category row the listings and events in it; an FX row everything priced (normalised prices).
 * Every document is written with its external version, so re-applying is harmless and an older
 * state can never replace a newer one.
 *
 * `lockClient` is the connection of the caller's transaction: events are locked per id on it
 * (advisory), because an event is many documents and two workers must not interleave on one.
 */
export async function applyChanges(
  deps: ApplyDeps,
  rows: ChangeRow[],
  lockClient?: pg.PoolClient,
): Promise<ApplyResult> {
  const ctx = await loadProjectionContext(deps.db);
  const listings: Causes = new Map();
  const events: Causes = new Map();
  const places: Causes = new Map();
  const missingVersion = new Map<number, number>();

  for (const r of rows) {
    if (r.entity === 'listing') {
      addCause(listings, r.entityId, r.id);
      missingVersion.set(r.entityId, Math.max(r.version, missingVersion.get(r.entityId) ?? 0));
    } else if (r.entity === 'event') addCause(events, r.entityId, r.id);
  }
  const fanOut = async (rowIds: number[], by: { placeIds?: number[]; categoryIds?: number[]; all?: boolean }) => {
    for (const id of await listingIdsWhere(deps.db, by)) for (const rid of rowIds) addCause(listings, id, rid);
    for (const id of await eventIdsWhere(deps.db, by)) for (const rid of rowIds) addCause(events, id, rid);
  };
  const fxRows = rows.filter((r) => r.entity === 'fx').map((r) => r.id);
  if (fxRows.length) await fanOut(fxRows, { all: true });
  for (const r of rows.filter((x) => x.entity === 'category')) await fanOut([r.id], { categoryIds: [r.entityId] });
  for (const r of rows.filter((x) => x.entity === 'place')) {
    const subtree = subtreeIds(ctx, [r.entityId]);
    for (const p of subtree) addCause(places, p, r.id);
    await fanOut([r.id], { placeIds: subtree });
  }

  const failed = new Map<number, string>();
  const fail = (causes: Set<number> | undefined, reason: string) => {
    for (const id of causes ?? []) if (!failed.has(id)) failed.set(id, reason);
  };
  let documents = 0;

  // Places.
  const placeOps: BulkOp[] = [];
  for (const id of places.keys()) {
    const place = ctx.places.get(id);
    if (!place) continue;
    const doc = projectPlace(place, ctx);
    placeOps.push({
      action: 'index',
      index: targetOf(deps, 'places'),
      id: String(id),
      version: doc.version,
      doc,
    });
  }
  for (const part of chunk(placeOps, deps.chunkSize)) {
    const out = await runBulk(deps.search, part);
    documents += part.length;
    for (const f of out.failed) fail(places.get(Number(f.op.id)), f.reason);
  }

  // Listings.
  for (const ids of chunk([...listings.keys()], deps.chunkSize)) {
    const sources = await loadListingSources(deps.db, { ids });
    const found = new Set(sources.map((s) => s.listing.id));
    const ops: BulkOp[] = sources.map((src) => {
      const doc = projectListing(src, ctx);
      const index = targetOf(deps, 'listings');
      const version = listingVersion(src, ctx);
      return doc
        ? { action: 'index', index, id: String(src.listing.id), version, doc }
        : { action: 'delete', index, id: String(src.listing.id), version };
    });
    // A row gone from Postgres: delete at the version of the change that removed it.
    for (const id of ids) {
      if (!found.has(id)) {
        ops.push({
          action: 'delete',
          index: targetOf(deps, 'listings'),
          id: String(id),
          version: missingVersion.get(id) ?? 1,
        });
      }
    }
    const out = await runBulk(deps.search, ops);
    documents += ops.length;
    for (const f of out.failed) fail(listings.get(Number(f.op.id)), f.reason);
  }

  // Events: many occurrence documents each, serialised per event across workers.
  const eventIds = [...events.keys()].sort((a, b) => a - b);
  if (lockClient) {
    for (const id of eventIds)
      await lockClient.query('select pg_advisory_xact_lock(hashtext($1))', [`catalog-event:${id}`]);
  }
  for (const ids of chunk(eventIds, Math.max(1, Math.floor(deps.chunkSize / 20)))) {
    const r = await writeEvents(deps, ctx, ids);
    documents += r.documents;
    for (const [eventId, reason] of r.failed) fail(events.get(eventId), reason);
  }
  return { failed, documents };
}

/**
 * Writes the occurrences of these events at their current version, then removes occurrences of
 * older versions (days that left the schedule, or the whole event when unpublished).
 */
export async function writeEvents(
  deps: ApplyDeps,
  ctx: ProjectionContext,
  ids: number[],
  opts: { fromDay?: (zone: string) => string } = {},
): Promise<{ failed: Map<number, string>; documents: number }> {
  const failed = new Map<number, string>();
  const index = targetOf(deps, 'events');
  const sources = await loadEventSources(deps.db, { ids });
  const found = new Set(sources.map((s) => s.event.id));
  const ops: BulkOp[] = [];
  const versions = new Map<number, number>();
  for (const src of sources) {
    const v = eventVersion(src, ctx);
    versions.set(src.event.id, v);
    const from = opts.fromDay?.(src.event.timezone);
    for (const o of projectEventOccurrences(src, ctx, deps.now(), deps.horizonDays)) {
      if (from && o.doc.day < from) continue;
      ops.push({ action: 'index', index, id: o.id, version: v, doc: o.doc });
    }
  }
  const out = await runBulk(deps.search, ops);
  for (const f of out.failed) {
    const eventId = Number(f.op.id.split(':')[0]);
    if (!failed.has(eventId)) failed.set(eventId, f.reason);
  }
  if (!opts.fromDay) {
    const stale = [
      ...[...versions].map(([id, v]) => ({
        bool: { filter: [{ term: { event_id: id } }, { range: { version: { lt: v } } }] },
      })),
      ...ids.filter((id) => !found.has(id)).map((id) => ({ term: { event_id: id } })),
    ];
    try {
      if (stale.length)
        await deps.search.deleteByQuery(index, { query: { bool: { should: stale, minimum_should_match: 1 } } });
    } catch (err) {
      for (const id of ids)
        if (!failed.has(id)) failed.set(id, `delete of old occurrences failed: ${(err as Error).message}`);
    }
  }
  return { failed, documents: ops.length };
}
