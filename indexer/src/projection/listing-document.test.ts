import { describe, expect, it } from 'vitest';
import { projectListing, type ListingSource } from './listing-document.ts';
import type { PlaceRow, ProjectionContext } from './context.ts';

const place = (
  id: number,
  parentId: number | null,
  level: PlaceRow['level'],
  name: Record<string, string>,
  version: number,
): PlaceRow => ({
  id,
  externalId: `P-${id}`,
  parentId,
  level,
  slug: `p-${id}`,
  name,
  timezone: 'Asia/Bangkok',
  currency: 'THB',
  centerLat: null,
  centerLon: null,
  popular: false,
  contentHash: 'h',
  version,
  updatedAt: new Date(0),
});

const ctx: ProjectionContext = {
  places: new Map([
    [1, place(1, null, 'country', { en: 'Thailand', ru: 'Таиланд' }, 3)],
    [2, place(2, 1, 'region', { en: 'Phuket', th: 'ภูเก็ต' }, 4)],
    [3, place(3, 2, 'district', { en: 'Kata' }, 5)],
  ]),
  categories: new Map([
    [
      7,
      {
        id: 7,
        code: 'diving',
        kind: 'experience',
        name: { en: 'Diving' },
        contentHash: 'h',
        version: 40,
        updatedAt: new Date(0),
      },
    ],
  ]),
  fx: { base: 'THB', rates: { USD: 0.025 }, version: 2 },
};

function given(overrides: Partial<ListingSource['listing']> = {}, rest: Partial<ListingSource> = {}): ListingSource {
  return {
    listing: {
      id: 11,
      externalId: 'L-11',
      kind: 'experience',
      status: 'published',
      title: { en: 'Reef dive', ru: 'Погружение на риф' },
      description: {},
      originalLang: 'en',
      placeId: 3,
      lat: 7.8,
      lon: 98.3,
      locationMode: 'exact',
      priceMinor: 10000,
      currency: 'USD',
      priceUnit: 'person',
      ratingAvg: 4.5,
      ratingCount: 10,
      photos: [],
      instantBook: true,
      languages: ['en'],
      createdAt: new Date('2026-01-01T00:00:00Z'),
      contentHash: 'h',
      version: 20,
      updatedAt: new Date(0),
      ...overrides,
    },
    categoryIds: [7],
    amenityCodes: [],
    blocked: [],
    stay: null,
    experience: { duration_min: 120, group_size_max: 6, same_day: true },
    service: null,
    transport: null,
    food: null,
    ...rest,
  };
}

describe('projectListing (pure)', () => {
  it('given a draft or archived listing, then no document (it must not be in the index)', () => {
    expect(projectListing(given({ status: 'draft' }), ctx)).toBeNull();
    expect(projectListing(given({ status: 'archived' }), ctx)).toBeNull();
  });

  it('given a published listing, then the place path ids and the names of every level per language are in the document', () => {
    const doc = projectListing(given(), ctx)!;
    expect(doc.place_path_ids).toEqual([1, 2, 3]);
    expect(doc.place_names).toEqual({ en: ['Thailand', 'Phuket', 'Kata'], ru: ['Таиланд'], th: ['ภูเก็ต'] });
    expect(doc.place).toEqual({ id: 3, slug: 'p-3', level: 'district', name: { en: 'Kata' } });
  });

  it('given photos, then the first is the cover and every photo is kept in order for the listing page; none, then null and empty', () => {
    const first = { thumb: 't1', medium: 'm1', large: 'l1' };
    const second = { thumb: 't2', medium: 'm2', large: null };
    const doc = projectListing(given({ photos: [first, second] }), ctx)!;
    expect(doc.cover_photo).toEqual(first);
    expect(doc.photos).toEqual([first, second]);
    expect(projectListing(given(), ctx)!.cover_photo).toBeNull();
    expect(projectListing(given(), ctx)!.photos).toEqual([]);
  });

  it('given a USD price, then the base-currency price is converted with the FX table (100.00 USD / 0.025 = 4000.00 THB)', () => {
    expect(projectListing(given(), ctx)!.price_base_minor).toBe(400000);
  });

  it('given a category with a newer version than the listing, then the document version is the largest of its parts', () => {
    expect(projectListing(given(), ctx)!.version).toBe(40);
    expect(projectListing(given({ version: 50 }), ctx)!.version).toBe(50);
  });

  it('given mode city_only, then no point and has_point false, so the map leaves it off', () => {
    const doc = projectListing(given({ locationMode: 'city_only', lat: null, lon: null }), ctx)!;
    expect(doc.location).toBeNull();
    expect(doc.has_point).toBe(false);
  });

  it('given places with centres, then place_center is the own place centre, else the nearest one above', () => {
    const centred = (id: number, lat: number, lon: number) => ({
      ...ctx.places.get(id)!,
      centerLat: lat,
      centerLon: lon,
    });
    const withRegion = { ...ctx, places: new Map([...ctx.places, [2, centred(2, 7.9, 98.3)]]) };
    const cityOnly = given({ locationMode: 'city_only', lat: null, lon: null });
    expect(projectListing(cityOnly, withRegion)!.place_center).toEqual({ lat: 7.9, lon: 98.3 });
    const withDistrict = { ...withRegion, places: new Map([...withRegion.places, [3, centred(3, 7.82, 98.29)]]) };
    expect(projectListing(cityOnly, withDistrict)!.place_center).toEqual({ lat: 7.82, lon: 98.29 });
    expect(projectListing(cityOnly, ctx)!.place_center).toBeNull();
  });

  it('given an experience, then duration and same-day are also on top level for the shared filters; other kind blocks are null', () => {
    const doc = projectListing(given(), ctx)!;
    expect([doc.duration_min, doc.same_day, doc.stay, doc.food]).toEqual([120, true, null, null]);
    expect(doc.suggest).toEqual(['Reef dive', 'Погружение на риф']);
  });
});
