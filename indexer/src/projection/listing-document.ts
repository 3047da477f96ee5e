import {
  basePriceMinor,
  LISTING_ATTRIBUTES,
  LISTING_KINDS,
  type ListingBlocks,
  type ListingDocument,
  type ListingKind,
  type SharedDocument,
  type Texts,
} from '@guest/catalog';
import {
  allTexts,
  documentVersion,
  pathNames,
  placePath,
  placeRef,
  type ListingRow,
  type ProjectionContext,
} from './context.ts';

/** A listing row with its child rows, as loaded from Postgres: the block of its kind, the others null. */
export interface ListingSource extends ListingBlocks {
  listing: ListingRow;
  categoryIds: number[];
  amenityCodes: string[];
  blocked: Array<{ dateFrom: string; dateTo: string }>;
}

const SHARED = Object.entries(LISTING_ATTRIBUTES).flatMap(([name, a]) =>
  'shared' in a ? [{ name, kinds: a.kinds as readonly ListingKind[], list: 'list' in a }] : [],
);

/**
 * The top-level fields the kinds having them share (`duration_min` of experiences and services):
 * the value of the listing's own block, else empty.
 */
function sharedFields(src: ListingSource, kind: ListingKind): SharedDocument {
  const block = src[kind] as Record<string, unknown> | null;
  return Object.fromEntries(
    SHARED.map(({ name, kinds, list }) => [
      name,
      kinds.includes(kind) && block ? (block[name] ?? null) : list ? [] : null,
    ]),
  ) as SharedDocument;
}

/** The external version of the listing's document (also used to delete it). */
export function listingVersion(src: ListingSource, ctx: ProjectionContext): number {
  const path = placePath(ctx, src.listing.placeId);
  const versions = src.categoryIds.map((id) => ctx.categories.get(id)?.version ?? 0);
  return documentVersion(src.listing.version, path, versions, ctx);
}

/** Pure: listing rows in, index document out; null means "must not be in the index". */
export function projectListing(src: ListingSource, ctx: ProjectionContext): ListingDocument | null {
  const l = src.listing;
  if (l.status !== 'published') return null;
  const path = placePath(ctx, l.placeId);
  const own = path[path.length - 1];
  if (!own) return null;
  const categories = src.categoryIds.map((id) => ctx.categories.get(id)).filter((c) => c !== undefined);
  const hasPoint = l.locationMode !== 'city_only' && l.lat !== null && l.lon !== null;
  const centred = [...path].reverse().find((p) => p.centerLat !== null && p.centerLon !== null);
  const kind = l.kind as ListingKind;
  return {
    id: l.id,
    external_id: l.externalId,
    kind,
    version: listingVersion(src, ctx),
    title: l.title as Texts,
    description: l.description as Texts,
    original_lang: l.originalLang,
    place: placeRef(own),
    place_path_ids: path.map((p) => p.id),
    place_names: pathNames(path),
    location: hasPoint ? { lat: l.lat!, lon: l.lon! } : null,
    location_mode: l.locationMode,
    has_point: hasPoint,
    place_center: centred ? { lat: centred.centerLat!, lon: centred.centerLon! } : null,
    price_minor: l.priceMinor,
    currency: l.currency,
    price_base_minor: basePriceMinor(l.priceMinor, l.currency, ctx.fx),
    price_unit: l.priceUnit,
    rating_avg: l.ratingAvg,
    rating_count: l.ratingCount,
    instant_book: l.instantBook,
    languages: l.languages,
    category_ids: categories.map((c) => c.id),
    category_codes: categories.map((c) => c.code),
    amenities: src.amenityCodes,
    blocked: src.blocked.map((b) => ({ gte: b.dateFrom, lt: b.dateTo })),
    cover_photo: l.photos[0] ?? null,
    photos: l.photos,
    created_at: l.createdAt.toISOString(),
    ...sharedFields(src, kind),
    ...(Object.fromEntries(LISTING_KINDS.map((k) => [k, k === kind ? src[k] : null])) as ListingBlocks),
    suggest: allTexts(l.title as Texts),
  };
}
