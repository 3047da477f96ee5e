import { aliasName, INDEX_KINDS, type IndexKind } from '@guest/catalog';
import type { Runtime } from '@guest/runtime';
import { loadEventSources, loadListingSources, loadProjectionContext } from './source/load-sources.ts';
import { projectListing } from './projection/listing-document.ts';
import { projectPlace } from './projection/place-document.ts';
import { projectEventOccurrences } from './projection/event-documents.ts';

export interface IndexDrift {
  expected: number;
  indexed: number;
  /** In Postgres (published), not in the index. */
  missing: string[];
  /** In the index, not expected (unpublished, deleted, or a day that left the horizon). */
  extra: string[];
  /** In both, with a different version: `id: index vN, postgres vM`. */
  stale: string[];
}

export interface VerifyReport {
  listings: IndexDrift;
  places: IndexDrift;
  events: IndexDrift;
  drift: number;
}

function compare(expected: Map<string, number>, indexed: Map<string, number>): IndexDrift {
  const d: IndexDrift = { expected: expected.size, indexed: indexed.size, missing: [], extra: [], stale: [] };
  for (const [id, v] of expected) {
    const got = indexed.get(id);
    if (got === undefined) d.missing.push(id);
    else if (got !== v) d.stale.push(`${id}: index v${got}, postgres v${v}`);
  }
  for (const id of indexed.keys()) if (!expected.has(id)) d.extra.push(id);
  return d;
}

async function indexedVersions(rt: Runtime, kind: IndexKind): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  const alias = aliasName(rt.config.INDEX_PREFIX, kind);
  for await (const page of rt.search.scan<{ version: number }>(
    alias,
    { query: { match_all: {} }, _source: ['version'] },
    2000,
  )) {
    for (const h of page) out.set(h._id, h._source.version);
  }
  return out;
}

/**
 * Compares what Postgres says the index must hold (ids and versions, by the same projections
 * the indexer uses) with what the index holds. Zero drift means every published object is
 * searchable at its latest version and nothing else is there.
 */
export async function verifyIndex(rt: Runtime): Promise<VerifyReport> {
  for (const kind of INDEX_KINDS) await rt.search.refresh(aliasName(rt.config.INDEX_PREFIX, kind));
  const ctx = await loadProjectionContext(rt.database.db);
  const page = rt.config.INDEXER_REINDEX_BULK_DOCS;

  const places = new Map<string, number>();
  for (const p of ctx.places.values()) places.set(String(p.id), projectPlace(p, ctx).version);

  const listings = new Map<string, number>();
  for (let after = 0; ;) {
    const rows = await loadListingSources(rt.database.db, { afterId: after, limit: page });
    if (!rows.length) break;
    after = rows[rows.length - 1]!.listing.id;
    for (const src of rows) {
      const doc = projectListing(src, ctx);
      if (doc) listings.set(String(doc.id), doc.version);
    }
  }

  const events = new Map<string, number>();
  for (let after = 0; ;) {
    const rows = await loadEventSources(rt.database.db, { afterId: after, limit: 200 });
    if (!rows.length) break;
    after = rows.reduce((m, s) => Math.max(m, s.event.id), after);
    for (const src of rows) {
      for (const o of projectEventOccurrences(src, ctx, rt.clock.now(), rt.config.EVENTS_HORIZON_DAYS)) {
        events.set(o.id, o.doc.version);
      }
    }
  }

  const report = {
    listings: compare(listings, await indexedVersions(rt, 'listings')),
    places: compare(places, await indexedVersions(rt, 'places')),
    events: compare(events, await indexedVersions(rt, 'events')),
  };
  const drift = Object.values(report).reduce((n, d) => n + d.missing.length + d.extra.length + d.stale.length, 0);
  return { ...report, drift };
}
