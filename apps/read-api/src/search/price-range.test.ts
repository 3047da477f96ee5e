import { describe, expect, it } from 'vitest';
import {
  buildHistogramRequest,
  buildPriceStatsRequest,
  HISTOGRAM_SEGMENTS,
  parseHistogram,
  parseUnitHistogram,
  parseUnitStats,
  priceRangeBody,
  segmentBounds,
} from './price-range.ts';

const fx = { base: 'THB', rates: { USD: 0.0281 } };

describe('price range', () => {
  it('scope: priced listings, optionally of one kind', () => {
    expect((buildPriceStatsRequest('food') as any).query).toEqual({
      bool: { filter: [{ exists: { field: 'price_base_minor' } }, { term: { kind: 'food' } }] },
    });
    const minMax = { min: { min: { field: 'price_base_minor' } }, max: { max: { field: 'price_base_minor' } } };
    expect((buildPriceStatsRequest(undefined) as any).aggs).toEqual({
      ...minMax,
      units: { terms: { field: 'price_unit', size: 7 }, aggs: minMax },
    });
  });

  it('24 segments on the quadratic scale: segment i from max·(i/24)² to max·((i+1)/24)²', () => {
    const b = segmentBounds(57600);
    expect(b).toHaveLength(25);
    expect(b[0]).toBe(0);
    expect(b[1]).toBe(100); // 57600 / 576
    expect(b[12]).toBe(14400); // a quarter of max at the middle handle
    expect(b[24]).toBe(57600);
    const ranges = (buildHistogramRequest(undefined, 57600) as any).aggs.segments.range.ranges;
    expect(ranges).toHaveLength(HISTOGRAM_SEGMENTS);
    expect(ranges[0]).toEqual({ key: '0', to: 100 });
    expect(ranges[1]).toEqual({ key: '1', from: 100, to: 400 });
    expect(ranges[23]).toEqual({ key: '23', from: b[23] });
  });

  it('parses buckets by key into 24 counts', () => {
    const counts = parseHistogram({
      segments: {
        buckets: [
          { key: '0', doc_count: 2 },
          { key: '23', doc_count: 1 },
        ],
      },
    });
    expect(counts).toHaveLength(24);
    expect(counts[0]).toBe(2);
    expect(counts[23]).toBe(1);
  });

  it('converts the bounds to the requested currency', () => {
    const body = priceRangeBody({ count: 3, minBase: 100000, maxBase: 500000 }, new Array(24).fill(0), 'USD', fx);
    expect(body).toMatchObject({ currency: 'USD', min_minor: 2810, max_minor: 14050 });
  });

  it('is empty when there are no prices', () => {
    expect(priceRangeBody({ count: 0, minBase: null, maxBase: null }, null, 'THB', fx)).toEqual({
      currency: 'THB',
      min_minor: null,
      max_minor: null,
      histogram: [],
      units: [],
    });
  });

  it('gives each price unit its own scale: nightly prices are not squeezed by monthly ones', () => {
    const ranges = (
      buildHistogramRequest('stay', 3_000_000, [
        { unit: 'night', max: 576_000 },
        { unit: 'month', max: 3_000_000 },
      ]) as any
    ).aggs;
    expect(ranges.unit_night.filter).toEqual({ term: { price_unit: 'night' } });
    expect(ranges.unit_night.aggs.segments.range.ranges[1]).toEqual({ key: '1', from: 1000, to: 4000 });
    expect(ranges.unit_month.aggs.segments.range.ranges[1].to).toBe(segmentBounds(3_000_000)[2]);
    const stats = parseUnitStats({
      units: {
        buckets: [
          { key: 'night', doc_count: 5, min: { value: 100000 }, max: { value: 576000 } },
          { key: 'month', doc_count: 2, min: { value: 1000000 }, max: { value: 3000000 } },
        ],
      },
    });
    const night = new Array<number>(24).fill(0);
    night[23] = 5;
    const body = priceRangeBody({ count: 7, minBase: 100000, maxBase: 3000000 }, null, 'USD', fx, {
      stats,
      histograms: new Map([['night', night]]),
    });
    expect(body.units).toEqual([
      { price_unit: 'night', count: 5, min_minor: 2810, max_minor: 16186, histogram: night },
      { price_unit: 'month', count: 2, min_minor: 28100, max_minor: 84300, histogram: [] },
    ]);
    expect(
      parseUnitHistogram({ unit_night: { segments: { buckets: [{ key: '3', doc_count: 2 }] } } }, 'night')[3],
    ).toBe(2);
  });

  it('puts every price in the first segment when all prices are zero', () => {
    const body = priceRangeBody({ count: 4, minBase: 0, maxBase: 0 }, null, 'THB', fx);
    expect(body.histogram[0]).toBe(4);
    expect(body.histogram.slice(1).every((c) => c === 0)).toBe(true);
  });
});
