import { and, asc, desc, eq, gt, lte, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { schema, type Db } from '@guest/db';
import {
  BASE_CURRENCY,
  blockAttributes,
  LISTING_KINDS,
  type BlockDocument,
  type ListingBlocks,
  type ListingKind,
} from '@guest/catalog';
import type { ProjectionContext } from '../projection/context.ts';
import type { ListingSource } from '../projection/listing-document.ts';
import type { EventSource } from '../projection/event-documents.ts';

/**
 * `column = any($1)` with the ids as one array parameter. `inArray` writes one placeholder per
 * id, and building that text for a page of 2,000 ids, eight times a page, cost the full rebuild
 * more CPU than projecting the documents did.
 */
function anyOf(column: AnyColumn, ids: number[]): SQL {
  return sql`${column} = any(${sql.param(ids)})`;
}

function groupBy<T>(rows: T[], keyOf: (row: T) => number): Map<number, T[]> {
  const m = new Map<number, T[]>();
  for (const r of rows) {
    const list = m.get(keyOf(r));
    if (list) list.push(r);
    else m.set(keyOf(r), [r]);
  }
  return m;
}

export async function loadProjectionContext(db: Db): Promise<ProjectionContext> {
  const [places, categories, [fx], currencies] = await Promise.all([
    db.select().from(schema.places),
    db.select().from(schema.categories),
    db
      .select()
      .from(schema.fxRates)
      .where(eq(schema.fxRates.base, BASE_CURRENCY))
      .orderBy(desc(schema.fxRates.date))
      .limit(1),
    db.select({ code: schema.currencies.code, minor: schema.currencies.minorUnits }).from(schema.currencies),
  ]);
  return {
    places: new Map(places.map((p) => [p.id, p])),
    categories: new Map(categories.map((c) => [c.id, c])),
    fx: fx
      ? {
          base: fx.base,
          rates: fx.rates,
          minorUnits: Object.fromEntries(currencies.map((c) => [c.code, c.minor])),
          version: fx.version,
        }
      : null,
  };
}

/** A row of a kind's block table, by its drizzle property names. */
type BlockRow = { listingId: number } & Record<string, unknown>;

/** A kind's block as the document holds it, from its row: each attribute of the block from its column. */
function blockOf<K extends ListingKind>(kind: K, row: BlockRow | undefined): BlockDocument<K> | null {
  if (!row) return null;
  return Object.fromEntries(blockAttributes(kind).map(([name, a]) => [name, row[a.column]])) as BlockDocument<K>;
}

/** Listings by id, or one keyset page (`afterId`, `limit`) for a full rebuild. */
export async function loadListingSources(
  db: Db,
  sel: { ids: number[] } | { afterId: number; limit: number },
): Promise<ListingSource[]> {
  let where: SQL | undefined;
  if ('ids' in sel) {
    if (!sel.ids.length) return [];
    where = anyOf(schema.listings.id, sel.ids);
  } else where = gt(schema.listings.id, sel.afterId);
  const q = db.select().from(schema.listings).where(where).orderBy(asc(schema.listings.id));
  const listings = 'ids' in sel ? await q : await q.limit(sel.limit);
  if (!listings.length) return [];
  // A keyset page holds every listing in (afterId, last id]: its child rows are one index range
  // each, which Postgres reads several times faster than a probe per id.
  const ofPage = (column: AnyColumn): SQL =>
    'ids' in sel
      ? anyOf(column, sel.ids)
      : and(gt(column, sel.afterId), lte(column, listings[listings.length - 1]!.id))!;
  const blockTables = LISTING_KINDS.map((kind) => schema.listingKindTables[kind]);
  const [cats, ams, blocked, ...blocks] = await Promise.all([
    db.select().from(schema.listingCategories).where(ofPage(schema.listingCategories.listingId)),
    db
      .select({ listingId: schema.listingAmenities.listingId, code: schema.amenities.code })
      .from(schema.listingAmenities)
      .innerJoin(schema.amenities, eq(schema.amenities.id, schema.listingAmenities.amenityId))
      .where(ofPage(schema.listingAmenities.listingId)),
    db.select().from(schema.listingBlockedRanges).where(ofPage(schema.listingBlockedRanges.listingId)),
    ...blockTables.map((table) => db.select().from(table).where(ofPage(table.listingId)) as Promise<Array<BlockRow>>),
  ]);
  const group = <T extends { listingId: number }>(rows: T[]) => groupBy(rows, (r) => r.listingId);
  const one = <T extends { listingId: number }>(rows: T[]) => new Map(rows.map((r) => [r.listingId, r]));
  const catsBy = group(cats);
  const amsBy = group(ams);
  const blockedBy = group(blocked);
  const blocksBy = blocks.map((rows) => one(rows as BlockRow[]));
  return listings.map((listing) => {
    const ofKind = <K extends ListingKind>(kind: K) =>
      blockOf(kind, blocksBy[LISTING_KINDS.indexOf(kind)]!.get(listing.id));
    return {
      listing,
      categoryIds: (catsBy.get(listing.id) ?? []).map((c) => c.categoryId).sort((a, b) => a - b),
      amenityCodes: (amsBy.get(listing.id) ?? []).map((a) => a.code).sort(),
      blocked: (blockedBy.get(listing.id) ?? [])
        .map((b) => ({ dateFrom: b.dateFrom, dateTo: b.dateTo }))
        .sort((a, b) => (a.dateFrom < b.dateFrom ? -1 : 1)),
      ...(Object.fromEntries(LISTING_KINDS.map((kind) => [kind, ofKind(kind)])) as ListingBlocks),
    };
  });
}

export async function loadEventSources(
  db: Db,
  sel: { ids: number[] } | { afterId: number; limit: number },
): Promise<EventSource[]> {
  let events;
  if ('ids' in sel) {
    if (!sel.ids.length) return [];
    events = await db.select().from(schema.events).where(anyOf(schema.events.id, sel.ids));
  } else {
    events = await db
      .select()
      .from(schema.events)
      .where(gt(schema.events.id, sel.afterId))
      .orderBy(asc(schema.events.id))
      .limit(sel.limit);
  }
  if (!events.length) return [];
  const slots = await db
    .select()
    .from(schema.eventSchedules)
    .where(
      anyOf(
        schema.eventSchedules.eventId,
        events.map((e) => e.id),
      ),
    );
  const slotsBy = groupBy(slots, (s) => s.eventId);
  return events.map((event) => ({ event, schedule: slotsBy.get(event.id) ?? [] }));
}

/** Ids of places in the subtrees of `roots` (roots included). */
export function subtreeIds(ctx: ProjectionContext, roots: number[]): number[] {
  const children = new Map<number, number[]>();
  for (const p of ctx.places.values()) {
    if (p.parentId !== null) children.set(p.parentId, [...(children.get(p.parentId) ?? []), p.id]);
  }
  const out = new Set<number>();
  const stack = [...roots];
  while (stack.length) {
    const id = stack.pop()!;
    if (out.has(id)) continue;
    out.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  return [...out];
}

export async function listingIdsWhere(db: Db, by: { placeIds?: number[]; categoryIds?: number[]; all?: boolean }) {
  if (by.all) return (await db.select({ id: schema.listings.id }).from(schema.listings)).map((r) => r.id);
  const ids = new Set<number>();
  if (by.placeIds?.length) {
    for (const r of await db
      .select({ id: schema.listings.id })
      .from(schema.listings)
      .where(anyOf(schema.listings.placeId, by.placeIds)))
      ids.add(r.id);
  }
  if (by.categoryIds?.length) {
    for (const r of await db
      .select({ id: schema.listingCategories.listingId })
      .from(schema.listingCategories)
      .where(anyOf(schema.listingCategories.categoryId, by.categoryIds)))
      ids.add(r.id);
  }
  return [...ids];
}

export async function eventIdsWhere(db: Db, by: { placeIds?: number[]; categoryIds?: number[]; all?: boolean }) {
  const conds: SQL[] = [];
  if (!by.all) {
    if (by.placeIds?.length) conds.push(anyOf(schema.events.placeId, by.placeIds));
    if (by.categoryIds?.length) conds.push(anyOf(schema.events.categoryId, by.categoryIds));
    if (!conds.length) return [];
  }
  const rows = await db
    .select({ id: schema.events.id })
    .from(schema.events)
    .where(by.all ? undefined : or(...conds));
  return rows.map((r) => r.id);
}
