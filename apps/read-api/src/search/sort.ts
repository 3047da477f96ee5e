import type { LatLon } from '../geo/filters.ts';
import type { Sort } from './params.ts';
import type { Dsl } from '@guest/search-engine';

/**
 * Sort orders of the feed. Each ends with the listing id, a unique tie-breaker, so that
 * `search_after` pages never repeat or skip a listing, even with equal prices or ratings and
 * while the index changes between pages.
 */
export function buildSort(sort: Sort, opts: { hasText: boolean; near?: LatLon | undefined }): Dsl[] {
  const id = { id: { order: 'asc' } };
  switch (sort) {
    case 'relevance':
      if (opts.hasText) return [{ _score: { order: 'desc' } }, id];
      // Without words there is nothing to score: the best rated first.
      return [{ rating_avg: { order: 'desc', missing: '_last' } }, { rating_count: { order: 'desc' } }, id];
    // Listings without a comparable price (no FX rate) come last. Explicit `missing` values keep
    // the sort values inside JSON's safe integers, so they survive the cursor unchanged.
    case 'price_asc':
      return [{ price_base_minor: { order: 'asc', missing: Number.MAX_SAFE_INTEGER } }, id];
    case 'price_desc':
      return [{ price_base_minor: { order: 'desc', missing: -1 } }, id];
    case 'rating':
      return [{ rating_avg: { order: 'desc', missing: '_last' } }, { rating_count: { order: 'desc' } }, id];
    case 'distance':
      if (!opts.near) throw new Error('sort=distance needs near (checked by the request schema)');
      return [
        {
          _geo_distance: {
            location: { lat: opts.near.lat, lon: opts.near.lon },
            order: 'asc',
            unit: 'm',
            distance_type: 'arc',
          },
        },
        id,
      ];
    case 'new':
      return [{ created_at: { order: 'desc' } }, { id: { order: 'desc' } }];
  }
}

const EARTH_RADIUS_M = 6_371_008.7714; // the mean radius OpenSearch uses for `arc` distances

/** Great-circle distance in metres (haversine), as the engine's `arc` distance. */
export function distanceM(a: LatLon, b: LatLon): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}
