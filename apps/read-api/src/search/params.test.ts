import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { filterRules, SearchFilters, SORTS } from './params.ts';

const Schema = SearchFilters.extend({ sort: z.enum(SORTS).default('relevance') }).superRefine(filterRules);

function fieldsOf(q: Record<string, unknown>): string[] {
  const r = Schema.safeParse(q);
  if (r.success) return [];
  return r.error.issues.map((i) => i.path.join('.'));
}

describe('SearchFilters: parsing', () => {
  it('parses bbox, near, lists (repeated or comma-separated), booleans and numbers', () => {
    const v = Schema.parse({
      bbox: '98.2, 7.7,98.4,7.9',
      near: '7.8,98.3',
      radius_m: '500',
      amenities: ['pool,wifi', 'kitchen'],
      category_id: '4',
      instant_book: '1',
      rating_min: '4.5',
    });
    expect(v.bbox).toEqual({ minLon: 98.2, minLat: 7.7, maxLon: 98.4, maxLat: 7.9 });
    expect(v.near).toEqual({ lat: 7.8, lon: 98.3 });
    expect(v.amenities).toEqual(['pool', 'wifi', 'kitchen']);
    expect(v.category_id).toEqual([4]);
    expect(v.instant_book).toBe(true);
    expect(v.kind).toBe('all');
  });

  it('allows a bbox across the antimeridian (minLon > maxLon)', () => {
    expect(fieldsOf({ bbox: '170,-10,-170,10' })).toEqual([]);
  });
});

describe('SearchFilters: every bad value names its field', () => {
  const bad: Array<[string, Record<string, unknown>, string]> = [
    ['malformed bbox', { bbox: '1,2,3' }, 'bbox'],
    ['bbox with words', { bbox: 'a,b,c,d' }, 'bbox'],
    ['bbox latitude out of range', { bbox: '98,7,99,91' }, 'bbox'],
    ['bbox longitude out of range', { bbox: '-181,7,99,8' }, 'bbox'],
    ['bbox minLat above maxLat', { bbox: '98,9,99,8' }, 'bbox'],
    ['near latitude out of range', { near: '95,98' }, 'near'],
    ['near longitude out of range', { near: '7,200' }, 'near'],
    ['near malformed', { near: '7.8' }, 'near'],
    ['radius without near', { radius_m: '100' }, 'radius_m'],
    ['date_to before date_from', { date_from: '2026-12-10', date_to: '2026-12-09' }, 'date_to'],
    ['date_to without date_from', { date_to: '2026-12-09' }, 'date_to'],
    ['not a calendar date', { date_from: '2026-02-30' }, 'date_from'],
    ['unknown kind', { kind: 'boat' }, 'kind'],
    ['unknown sort', { sort: 'cheapest' }, 'sort'],
    ['distance sort without near', { sort: 'distance' }, 'sort'],
    ['unknown transmission', { transmission: 'cvt' }, 'transmission'],
    ['unknown price_unit', { price_unit: 'week' }, 'price_unit'],
    ['unknown language', { languages: 'en,de' }, 'languages'],
    ['boolean typo', { instant_book: 'yes please' }, 'instant_book'],
    ['price_max below price_min', { price_min: '500', price_max: '100' }, 'price_max'],
    ['negative price', { price_min: '-1' }, 'price_min'],
    ['currency not a code', { currency: 'baht' }, 'currency'],
    ['rating above 5', { rating_min: '6' }, 'rating_min'],
    ['guests zero', { guests: '0' }, 'guests'],
    ['category not a number', { category_id: 'diving' }, 'category_id'],
    ['amenity not a code', { amenities: 'Pool!' }, 'amenities'],
  ];
  for (const [name, q, field] of bad) {
    it(name, () => {
      expect(fieldsOf(q)).toContain(field);
    });
  }
});
