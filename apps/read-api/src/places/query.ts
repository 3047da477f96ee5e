import type { ContentLanguage, PlaceDocument } from '@guest/catalog';
import { pickText } from '@guest/catalog';
import type { Dsl } from '@guest/search-engine';
import type { PlaceResponseT } from './schemas.ts';

/**
 * Places: pure query builders for the places and listings indices, and the mapping of a place
 * document to the PlaceResponse a client sees. Counts are aggregations on the listings alias,
 * which holds exactly the published listings (the projection drops drafts and archived ones): the
 * same boundary as the feed.
 */

export const MAX_PLACES = 10_000;
export const LEVEL_RANK: Record<string, number> = { country: 0, region: 1, district: 2, area: 3 };

export function placesQuery(f: {
  parentId?: number | undefined;
  level?: string | undefined;
  popular?: boolean;
  slug?: string;
  ids?: number[];
}): Dsl {
  const filter: Dsl[] = [];
  if (f.parentId !== undefined) filter.push({ term: { parent_id: f.parentId } });
  if (f.level) filter.push({ term: { level: f.level } });
  if (f.popular) filter.push({ term: { popular: true } });
  if (f.slug !== undefined) filter.push({ term: { slug: f.slug } });
  if (f.ids) filter.push({ terms: { id: f.ids } });
  return { size: MAX_PLACES, track_total_hits: false, query: { bool: { filter } }, sort: [{ id: 'asc' }] };
}

/** Listings attached to each place (`own`) and, with totals, to each place or a nested one (`total`). */
export function listingCountsQuery(ids: number[] | null, withTotals: boolean): Dsl {
  const terms = (field: string) => ({
    terms: { field, size: ids ? Math.max(ids.length, 1) : MAX_PLACES, ...(ids ? { include: ids } : {}) },
  });
  const aggs: Dsl = { own: terms('place.id') };
  if (withTotals) aggs.total = terms('place_path_ids');
  return { size: 0, track_total_hits: false, aggs };
}

/** Listings per kind in a place and every nested place. */
export function placeKindCountsQuery(placeId: number): Dsl {
  return {
    size: 0,
    track_total_hits: false,
    query: { bool: { filter: [{ term: { place_path_ids: placeId } }] } },
    aggs: { kinds: { terms: { field: 'kind', size: 10 } } },
  };
}

/** Distinct events in a place (or nested) with an occurrence that has not ended at `now`. */
export function placeEventCountQuery(placeId: number, now: Date): Dsl {
  return {
    size: 0,
    track_total_hits: false,
    query: {
      bool: { filter: [{ term: { place_path_ids: placeId } }, { range: { end_at: { gt: now.toISOString() } } }] },
    },
    aggs: { events: { cardinality: { field: 'event_id', precision_threshold: 40_000 } } },
  };
}

export interface PlaceCounts {
  own: Map<number, number>;
  total: Map<number, number> | null;
}

export function countsFrom(aggs: Record<string, any> | undefined): PlaceCounts {
  const map = (a: any) => new Map<number, number>((a?.buckets ?? []).map((b: any) => [Number(b.key), b.doc_count]));
  return { own: map(aggs?.own), total: aggs?.total ? map(aggs.total) : null };
}

export function toPlaceResponse(doc: PlaceDocument, lang: ContentLanguage, counts: PlaceCounts): PlaceResponseT {
  return {
    id: doc.id,
    parent_id: doc.parent_id,
    level: doc.level as PlaceResponseT['level'],
    slug: doc.slug,
    name: pickText(doc.name, lang, lang)?.text ?? doc.slug,
    listings_count: counts.own.get(doc.id) ?? 0,
    listings_total: counts.total ? (counts.total.get(doc.id) ?? 0) : null,
    name_full: doc.name_full ? (pickText(doc.name_full, lang, lang)?.text ?? null) : null,
    timezone: doc.timezone,
    currency: doc.currency,
    center: doc.center ? { lat: doc.center.lat, lon: doc.center.lon } : null,
  };
}

/** Countries first, then regions, …; by name in the request language inside a level. */
export function sortPlaces(items: PlaceResponseT[], lang: ContentLanguage): PlaceResponseT[] {
  return [...items].sort(
    (a, b) =>
      (LEVEL_RANK[a.level] ?? 9) - (LEVEL_RANK[b.level] ?? 9) || a.name.localeCompare(b.name, lang) || a.id - b.id,
  );
}
