import { LISTING_FACETS, type FacetParam, type ListingKind } from '@guest/catalog';
import type { Dsl } from '@guest/search-engine';

/**
 * The values the catalog uses for the filters whose values are codes without a reference list
 * (the facets of listing-attributes.ts: `property_type`, `room_type`, `vehicle_kind`…), each with
 * how many listings carry it: what a filter screen offers. The index holds published listings
 * only, as the feed's boundary.
 */
export const FILTER_VALUE_FIELDS = Object.fromEntries(LISTING_FACETS.map((f) => [f.param, f.field])) as Record<
  FacetParam,
  string
>;

export type FilterValueName = FacetParam;
export type FilterValues = Record<FilterValueName, Array<{ code: string; count: number }>>;

/** More codes than any vocabulary has; a longer tail is not a filter anyone scrolls. */
const MAX_VALUES = 100;

export function buildFilterValuesRequest(kind: ListingKind | undefined): Dsl {
  return {
    size: 0,
    query: { bool: { filter: kind ? [{ term: { kind } }] : [] } },
    aggs: Object.fromEntries(
      Object.entries(FILTER_VALUE_FIELDS).map(([name, field]) => [
        name,
        { terms: { field, size: MAX_VALUES, order: [{ _count: 'desc' }, { _key: 'asc' }] } },
      ]),
    ),
  };
}

export function parseFilterValues(aggregations: Record<string, any> | undefined): FilterValues {
  const out = {} as FilterValues;
  for (const name of Object.keys(FILTER_VALUE_FIELDS) as FilterValueName[]) {
    const buckets: Array<{ key: unknown; doc_count: number }> = aggregations?.[name]?.buckets ?? [];
    out[name] = buckets.map((b) => ({ code: String(b.key), count: b.doc_count }));
  }
  return out;
}
