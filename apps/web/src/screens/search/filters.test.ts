import { describe, expect, it } from 'vitest';
import { bboxAround, filtersFromUrl, mapViewFromUrl, mapViewToUrl, positionOf, priceAt } from './filters.ts';

describe('filters from the URL', () => {
  it('keeps the API names and types, drops what does not apply to the kind or is malformed', () => {
    const f = filtersFromUrl(
      new URLSearchParams(
        'kind=stay&q=Kata&bedrooms_min=2&pets_allowed=true&property_type=villa,condo&vehicle_kind=car&guests=x&date_from=2026-12-01&sort=relevance',
      ),
    );
    expect(f).toEqual({
      kind: 'stay',
      q: 'Kata',
      bedrooms_min: 2,
      pets_allowed: true,
      property_type: ['villa', 'condo'],
      date_from: '2026-12-01',
    });
  });

  it('leaves out kind=all and the default sort', () => {
    expect(filtersFromUrl(new URLSearchParams('kind=all&sort=relevance'))).toEqual({});
  });
});

describe('the price scale of the histogram (spec 4.7: a handle at p is max_minor · p²)', () => {
  it('maps positions to prices and back', () => {
    expect(priceAt(0.5, 1_000_000)).toBe(250_000);
    expect(priceAt(1, 1_000_000)).toBe(1_000_000);
    expect(priceAt(0, 1_000_000)).toBe(0);
    expect(positionOf(250_000, 1_000_000)).toBeCloseTo(0.5);
    expect(positionOf(2_000_000, 1_000_000)).toBe(1);
    // Segment i of 24 covers p from i/24 to (i+1)/24.
    expect(priceAt(12 / 24, 2400)).toBe(600);
  });
});

describe('the map view in the URL', () => {
  it('round-trips zoom/lat/lon and refuses nonsense', () => {
    const v = { zoom: 12.5, lat: 7.82061, lon: 98.29862 };
    expect(mapViewFromUrl(new URLSearchParams({ map: mapViewToUrl(v) }))).toEqual(v);
    expect(mapViewFromUrl(new URLSearchParams({ map: '30/0/0' }))).toBeNull();
    expect(mapViewFromUrl(new URLSearchParams({ map: 'x' }))).toBeNull();
  });
});

describe('the area a map view shows (Web Mercator, 512-pixel tiles)', () => {
  it('is the whole world at zoom 0 on 512 pixels, and halves with each zoom', () => {
    expect(bboxAround({ zoom: 0, lat: 0, lon: 0 }, 512, 512)).toBe('-180.00000,-85.05113,180.00000,85.05113');
    expect(bboxAround({ zoom: 1, lat: 0, lon: 0 }, 512, 512)).toBe('-90.00000,-66.51326,90.00000,66.51326');
  });
});
