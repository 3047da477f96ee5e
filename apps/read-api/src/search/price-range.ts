import { convertMinor, type FxTable, type ListingKind } from '@guest/catalog';
import type { Dsl } from '@guest/search-engine';

/**
 * The price histogram of spec 4.7: 24 segments on a quadratic scale from zero. A handle at
 * position p (0..1) means the price `max · p²`; segment i covers p from i/24 to (i+1)/24, that is
 * prices from max·(i/24)² up to (not including) max·((i+1)/24)²; the last one includes max.
 * Computed on the base-currency price of every listing, then the bounds are converted.
 */
export const HISTOGRAM_SEGMENTS = 24;

const PRICED: Dsl = { exists: { field: 'price_base_minor' } };

function scope(kind: ListingKind | undefined): Dsl {
  const filter: Dsl[] = [PRICED];
  if (kind) filter.push({ term: { kind } });
  return { bool: { filter } };
}

/** First request: the lowest and highest base price of the scope. */
export function buildPriceStatsRequest(kind: ListingKind | undefined): Dsl {
  return {
    size: 0,
    track_total_hits: true,
    query: scope(kind),
    aggs: { min: { min: { field: 'price_base_minor' } }, max: { max: { field: 'price_base_minor' } } },
  };
}

/** Segment bounds in base minor units: `HISTOGRAM_SEGMENTS + 1` values from 0 to max. */
export function segmentBounds(max: number): number[] {
  return Array.from({ length: HISTOGRAM_SEGMENTS + 1 }, (_, i) => max * (i / HISTOGRAM_SEGMENTS) ** 2);
}

/** Second request: how many prices fall in each segment (range `from` inclusive, `to` exclusive). */
export function buildHistogramRequest(kind: ListingKind | undefined, max: number): Dsl {
  const b = segmentBounds(max);
  const ranges = Array.from({ length: HISTOGRAM_SEGMENTS }, (_, i) => {
    const r: { key: string; from?: number; to?: number } = { key: String(i) };
    if (i > 0) r.from = b[i]!;
    if (i < HISTOGRAM_SEGMENTS - 1) r.to = b[i + 1]!;
    return r;
  });
  return {
    size: 0,
    query: scope(kind),
    aggs: { segments: { range: { field: 'price_base_minor', keyed: false, ranges } } },
  };
}

export function parseHistogram(aggregations: Record<string, any> | undefined): number[] {
  const buckets: Array<{ key: string; doc_count: number }> = aggregations?.segments?.buckets ?? [];
  const counts = new Array<number>(HISTOGRAM_SEGMENTS).fill(0);
  for (const b of buckets) {
    const i = Number(b.key);
    if (Number.isInteger(i) && i >= 0 && i < HISTOGRAM_SEGMENTS) counts[i] = b.doc_count;
  }
  return counts;
}

export interface PriceRangeBody {
  currency: string | null;
  min_minor: number | null;
  max_minor: number | null;
  histogram: number[];
}

/** Puts the answer together in the requested currency; empty when there are no prices. */
export function priceRangeBody(
  stats: { count: number; minBase: number | null; maxBase: number | null },
  histogram: number[] | null,
  currency: string,
  fx: FxTable,
): PriceRangeBody {
  if (!stats.count || stats.minBase === null || stats.maxBase === null) {
    return { currency, min_minor: null, max_minor: null, histogram: [] };
  }
  return {
    currency,
    min_minor: convertMinor(stats.minBase, fx.base, currency, fx),
    max_minor: convertMinor(stats.maxBase, fx.base, currency, fx),
    // All prices zero: every one sits at the start of the scale.
    histogram:
      stats.maxBase === 0 ? [stats.count, ...new Array<number>(HISTOGRAM_SEGMENTS - 1).fill(0)] : (histogram ?? []),
  };
}
