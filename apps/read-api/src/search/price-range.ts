import { convertMinor, PRICE_UNITS, type FxTable, type ListingKind } from '@guest/catalog';
import type { Dsl } from '@guest/search-engine';

/**
 * The price histogram of spec 4.7: 24 segments on a quadratic scale from zero. A handle at
 * position p (0..1) means the price `max · p²`; segment i covers p from i/24 to (i+1)/24, that is
 * prices from max·(i/24)² up to (not including) max·((i+1)/24)²; the last one includes max.
 * Computed on the base-currency price of every listing, then the bounds are converted.
 *
 * The same again per price unit (`units`): a price per night and a price per month are not on
 * one scale, so a price filter is set on the histogram of one unit (with `price_unit`).
 */
export const HISTOGRAM_SEGMENTS = 24;

const PRICED: Dsl = { exists: { field: 'price_base_minor' } };

function scope(kind: ListingKind | undefined): Dsl {
  const filter: Dsl[] = [PRICED];
  if (kind) filter.push({ term: { kind } });
  return { bool: { filter } };
}

const MIN_MAX: Dsl = { min: { min: { field: 'price_base_minor' } }, max: { max: { field: 'price_base_minor' } } };

/** First request: the lowest and highest base price of the scope, and of each price unit in it. */
export function buildPriceStatsRequest(kind: ListingKind | undefined): Dsl {
  return {
    size: 0,
    track_total_hits: true,
    query: scope(kind),
    aggs: {
      ...MIN_MAX,
      units: { terms: { field: 'price_unit', size: PRICE_UNITS.length }, aggs: MIN_MAX },
    },
  };
}

/** Base prices of one price unit (or of the whole scope: `unit` null). */
export interface PriceStats {
  unit: string | null;
  count: number;
  minBase: number | null;
  maxBase: number | null;
}

/** The stats of each price unit of the first request's answer, most listings first. */
export function parseUnitStats(aggregations: Record<string, any> | undefined): PriceStats[] {
  const buckets: Array<{
    key: string;
    doc_count: number;
    min?: { value: number | null };
    max?: { value: number | null };
  }> = aggregations?.units?.buckets ?? [];
  return buckets.map((b) => ({
    unit: String(b.key),
    count: b.doc_count,
    minBase: b.min?.value ?? null,
    maxBase: b.max?.value ?? null,
  }));
}

/** Segment bounds in base minor units: `HISTOGRAM_SEGMENTS + 1` values from 0 to max. */
export function segmentBounds(max: number): number[] {
  return Array.from({ length: HISTOGRAM_SEGMENTS + 1 }, (_, i) => max * (i / HISTOGRAM_SEGMENTS) ** 2);
}

function segmentsAgg(max: number): Dsl {
  const b = segmentBounds(max);
  const ranges = Array.from({ length: HISTOGRAM_SEGMENTS }, (_, i) => {
    const r: { key: string; from?: number; to?: number } = { key: String(i) };
    if (i > 0) r.from = b[i]!;
    if (i < HISTOGRAM_SEGMENTS - 1) r.to = b[i + 1]!;
    return r;
  });
  return { range: { field: 'price_base_minor', keyed: false, ranges } };
}

/** The aggregation name of one price unit's histogram. */
const unitAgg = (unit: string) => `unit_${unit}`;

/**
 * Second request: how many prices fall in each segment (range `from` inclusive, `to` exclusive),
 * for the whole scope and, on each one's own scale, for the price units of `units`.
 */
export function buildHistogramRequest(
  kind: ListingKind | undefined,
  max: number,
  units: Array<{ unit: string; max: number }> = [],
): Dsl {
  const aggs: Record<string, Dsl> = { segments: segmentsAgg(max) };
  for (const u of units) {
    aggs[unitAgg(u.unit)] = { filter: { term: { price_unit: u.unit } }, aggs: { segments: segmentsAgg(u.max) } };
  }
  return { size: 0, query: scope(kind), aggs };
}

/** One price unit's histogram of the second request's answer. */
export function parseUnitHistogram(aggregations: Record<string, any> | undefined, unit: string): number[] {
  return parseHistogram(aggregations?.[unitAgg(unit)]);
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

type PriceUnit = (typeof PRICE_UNITS)[number];
const isPriceUnit = (u: string | null): u is PriceUnit => (PRICE_UNITS as readonly (string | null)[]).includes(u);

export interface PriceScale {
  min_minor: number | null;
  max_minor: number | null;
  histogram: number[];
}

export interface PriceRangeBody extends PriceScale {
  currency: string | null;
  units: Array<PriceScale & { price_unit: PriceUnit; count: number }>;
}

/** One scale in the requested currency; empty when there are no prices. */
function scaleOf(
  stats: Omit<PriceStats, 'unit'>,
  histogram: number[] | null,
  currency: string,
  fx: FxTable,
): PriceScale {
  if (!stats.count || stats.minBase === null || stats.maxBase === null) {
    return { min_minor: null, max_minor: null, histogram: [] };
  }
  return {
    min_minor: convertMinor(stats.minBase, fx.base, currency, fx),
    max_minor: convertMinor(stats.maxBase, fx.base, currency, fx),
    // All prices zero: every one sits at the start of the scale.
    histogram:
      stats.maxBase === 0 ? [stats.count, ...new Array<number>(HISTOGRAM_SEGMENTS - 1).fill(0)] : (histogram ?? []),
  };
}

/**
 * Puts the answer together in the requested currency: the whole scope, then each price unit
 * (`units`, most listings first, each with its histogram; `histograms` by unit).
 */
export function priceRangeBody(
  stats: Omit<PriceStats, 'unit'>,
  histogram: number[] | null,
  currency: string,
  fx: FxTable,
  units: { stats: PriceStats[]; histograms: ReadonlyMap<string, number[]> } = { stats: [], histograms: new Map() },
): PriceRangeBody {
  return {
    currency,
    ...scaleOf(stats, histogram, currency, fx),
    units: units.stats
      .flatMap((u) => (isPriceUnit(u.unit) && u.count > 0 ? [{ ...u, unit: u.unit }] : []))
      .map((u) => ({
        price_unit: u.unit,
        count: u.count,
        ...scaleOf(u, units.histograms.get(u.unit) ?? null, currency, fx),
      })),
  };
}
