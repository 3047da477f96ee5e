import { inArray } from 'drizzle-orm';
import { schema } from '@guest/db';
import { blockAttributes, LISTING_KINDS, type ListingRecord } from '@guest/catalog';
import { excludedSet, NEXT_VERSION, type WriteContext } from './shared.ts';
import { changedByExternalId } from './external-ids.ts';

/** The row of the listing's block table: each attribute of its kind's block in its column. */
function kindRow(id: number, r: ListingRecord): Record<string, unknown> {
  const block = r[r.kind] as Record<string, unknown>;
  return {
    listingId: id,
    ...Object.fromEntries(blockAttributes(r.kind).map(([name, a]) => [a.column, block[name] ?? null])),
  };
}

/** What listings refer to: their place, categories and amenities, by external id or code. */
export interface ListingRefs {
  placeIds: Map<string, number>;
  categoryIds: Map<string, number>;
  amenityIds: Map<string, number>;
}

/**
 * Listings with their child rows: categories, amenities, blocked ranges and the block of their
 * kind (its attributes, listing-attributes.ts). A changed listing's child rows are replaced
 * wholesale: the record is the full truth about the listing.
 */
export async function writeListings(ctx: WriteContext, batch: ListingRecord[], refs: ListingRefs) {
  const { dbTx } = ctx;
  const changed = await changedByExternalId(ctx, schema.listings, 'listing', batch);
  if (!changed.length) return;
  const written = await dbTx
    .insert(schema.listings)
    .values(
      changed.map(({ r, hash }) => ({
        externalId: r.external_id,
        kind: r.kind,
        status: r.status,
        title: r.title,
        description: r.description,
        originalLang: r.original_lang,
        placeId: refs.placeIds.get(r.place)!,
        lat: r.location.mode === 'city_only' ? null : (r.location.lat ?? null),
        lon: r.location.mode === 'city_only' ? null : (r.location.lon ?? null),
        locationMode: r.location.mode,
        priceMinor: r.price.amount_minor,
        currency: r.price.currency,
        priceUnit: r.price.unit,
        ratingAvg: r.rating?.avg ?? null,
        ratingCount: r.rating?.count ?? 0,
        photos: r.photos,
        instantBook: r.instant_book,
        languages: r.languages,
        createdAt: new Date(r.created_at),
        contentHash: hash,
        version: NEXT_VERSION,
      })),
    )
    .onConflictDoUpdate({ target: schema.listings.externalId, set: excludedSet(schema.listings, ['id', 'externalId']) })
    .returning({ id: schema.listings.id, k: schema.listings.externalId, version: schema.listings.version });
  const idOf = new Map(written.map((w) => [w.k, w.id]));
  const ids = written.map((w) => w.id);
  // Child rows are replaced wholesale: the record is the full truth about the listing.
  await dbTx.delete(schema.listingCategories).where(inArray(schema.listingCategories.listingId, ids));
  await dbTx.delete(schema.listingAmenities).where(inArray(schema.listingAmenities.listingId, ids));
  await dbTx.delete(schema.listingBlockedRanges).where(inArray(schema.listingBlockedRanges.listingId, ids));
  for (const kind of LISTING_KINDS) {
    const table = schema.listingKindTables[kind];
    await dbTx.delete(table).where(inArray(table.listingId, ids));
  }
  const cats = changed.flatMap(({ r }) =>
    [...new Set(r.categories)].map((c) => ({
      listingId: idOf.get(r.external_id)!,
      categoryId: refs.categoryIds.get(c)!,
    })),
  );
  const ams = changed.flatMap(({ r }) =>
    [...new Set(r.amenities)].map((a) => ({ listingId: idOf.get(r.external_id)!, amenityId: refs.amenityIds.get(a)! })),
  );
  const blocked = changed.flatMap(({ r }) =>
    r.blocked.map((b) => ({ listingId: idOf.get(r.external_id)!, dateFrom: b.from, dateTo: b.to })),
  );
  if (cats.length) await dbTx.insert(schema.listingCategories).values(cats);
  if (ams.length) await dbTx.insert(schema.listingAmenities).values(ams);
  if (blocked.length) await dbTx.insert(schema.listingBlockedRanges).values(blocked);
  for (const kind of LISTING_KINDS) {
    const rows = changed.filter(({ r }) => r.kind === kind).map(({ r }) => kindRow(idOf.get(r.external_id)!, r));
    if (rows.length) await dbTx.insert(schema.listingKindTables[kind]).values(rows as never);
  }
  for (const w of written) ctx.outbox.push({ entity: 'listing', entityId: w.id, version: w.version });
}
