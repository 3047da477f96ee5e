import { describe, expect, it } from 'vitest';
import type { PlaceDocument } from '@guest/catalog';
import { countsFrom, listingCountsQuery, placesQuery, sortPlaces, toPlaceResponse } from './query.ts';
import { groupAmenities } from '../amenities/groups.ts';
import { categoryCountsQuery } from '../categories/query.ts';

describe('places query builders', () => {
  it('filters by parent and level', () => {
    expect(placesQuery({ parentId: 3, level: 'district' })).toEqual({
      size: 10000,
      track_total_hits: false,
      query: { bool: { filter: [{ term: { parent_id: 3 } }, { term: { level: 'district' } }] } },
      sort: [{ id: 'asc' }],
    });
  });
  it('counts own listings by place.id and totals by place_path_ids, limited to the asked places', () => {
    expect(listingCountsQuery([1, 2], true)).toEqual({
      size: 0,
      track_total_hits: false,
      aggs: {
        own: { terms: { field: 'place.id', size: 2, include: [1, 2] } },
        total: { terms: { field: 'place_path_ids', size: 2, include: [1, 2] } },
      },
    });
    expect((listingCountsQuery(null, false) as any).aggs).toEqual({
      own: { terms: { field: 'place.id', size: 10000 } },
    });
  });
  it('counts category listings inside one kind', () => {
    expect((categoryCountsQuery('food', [4]) as any).query).toEqual({ bool: { filter: [{ term: { kind: 'food' } }] } });
  });
});

describe('toPlaceResponse', () => {
  const doc = {
    id: 7,
    parent_id: 2,
    level: 'district',
    slug: 'kata',
    name: { en: 'Kata', ru: 'Ката' },
    name_full: { en: 'Kata, Phuket', ru: 'Ката, Пхукет' },
    timezone: 'Asia/Bangkok',
    currency: 'THB',
    center: null,
    popular: false,
  } as unknown as PlaceDocument;
  it('answers in the request language with English fallback; totals only when counted', () => {
    const counts = countsFrom({ own: { buckets: [{ key: 7, doc_count: 4 }] } });
    expect(toPlaceResponse(doc, 'ru', counts)).toMatchObject({
      name: 'Ката',
      name_full: 'Ката, Пхукет',
      listings_count: 4,
      listings_total: null,
    });
    expect(toPlaceResponse(doc, 'th', countsFrom({ own: { buckets: [] }, total: { buckets: [] } }))).toMatchObject({
      name: 'Kata',
      listings_count: 0,
      listings_total: 0,
    });
  });
  it('sorts by level, then name', () => {
    const r = (id: number, level: string, name: string) =>
      ({ ...toPlaceResponse(doc, 'en', countsFrom({})), id, level, name }) as any;
    expect(
      sortPlaces([r(1, 'area', 'A'), r(2, 'district', 'Z'), r(3, 'district', 'B')], 'en').map((p) => p.id),
    ).toEqual([3, 2, 1]);
  });
});

describe('groupAmenities', () => {
  const rows = [
    { id: 1, code: 'x', group: 'zzz_custom', kinds: ['stay'], name: { en: 'X' } },
    { id: 2, code: 'pool', group: 'facilities', kinds: ['stay'], name: { en: 'Pool' } },
    { id: 3, code: 'wifi', group: 'internet', kinds: ['stay', 'service'], name: { en: 'Wi-Fi' } },
  ];
  it('orders known groups first and humanizes unknown group codes', () => {
    expect(groupAmenities(rows, null, 'en').map((g) => [g.group, g.name])).toEqual([
      ['facilities', 'Facilities'],
      ['internet', 'Internet'],
      ['zzz_custom', 'Zzz custom'],
    ]);
  });
  it('keeps only amenities of the kind and drops empty groups', () => {
    expect(groupAmenities(rows, 'service', 'en').map((g) => g.group)).toEqual(['internet']);
  });
});
