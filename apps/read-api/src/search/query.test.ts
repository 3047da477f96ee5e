import { describe, expect, it } from 'vitest';
import { SearchFilters, type Filters } from './params.ts';
import { buildFilterClauses, buildListingQuery, hasText, nextDay, TEXT_FIELDS, type QueryContext } from './query.ts';
import { buildLexicon, NO_INTENTS } from '../query-understanding/lexicon.ts';
import { understand } from '../query-understanding/understand.ts';

/** The listing's point in the area, or a `city_only` listing's place centre in it. */
const pointOrPlace = (on: (field: string) => object) => ({
  bool: {
    should: [on('location'), { bool: { filter: [{ term: { location_mode: 'city_only' } }, on('place_center')] } }],
    minimum_should_match: 1,
  },
});

const ctx: QueryContext = { fx: { base: 'THB', rates: { USD: 0.0281, EUR: 0.0262 } }, baseCurrency: 'THB' };
const f = (q: Record<string, unknown>): Filters => SearchFilters.parse(q);

describe('buildFilterClauses: each shared filter becomes its query-DSL clause', () => {
  const cases: Array<[string, Record<string, unknown>, unknown[], unknown[]?]> = [
    ['kind', { kind: 'stay' }, [{ term: { kind: 'stay' } }]],
    ['kind all adds nothing', { kind: 'all' }, []],
    [
      'bbox',
      { bbox: '98.2,7.7,98.4,7.9' },
      [
        pointOrPlace((field) => ({
          geo_bounding_box: { [field]: { top_left: { lat: 7.9, lon: 98.2 }, bottom_right: { lat: 7.7, lon: 98.4 } } },
        })),
      ],
    ],
    [
      'near + radius_m',
      { near: '7.8,98.3', radius_m: '1500' },
      [pointOrPlace((field) => ({ geo_distance: { distance: '1500m', [field]: { lat: 7.8, lon: 98.3 } } }))],
    ],
    ['near alone filters nothing', { near: '7.8,98.3' }, []],
    [
      'property_type (any)',
      { property_type: 'villa,condo' },
      [{ terms: { 'stay.property_type': ['villa', 'condo'] } }],
    ],
    ['room_type', { room_type: 'entire_place' }, [{ term: { 'stay.room_type': 'entire_place' } }]],
    ['bedrooms_min', { bedrooms_min: '2' }, [{ range: { 'stay.bedrooms': { gte: 2 } } }]],
    ['beds_min', { beds_min: '3' }, [{ range: { 'stay.beds': { gte: 3 } } }]],
    ['bathrooms_min', { bathrooms_min: '2' }, [{ range: { 'stay.bathrooms': { gte: 2 } } }]],
    ['beach_distance_max', { beach_distance_max: '500' }, [{ range: { 'stay.beach_distance_m': { lte: 500 } } }]],
    ['pets_allowed', { pets_allowed: 'true' }, [{ term: { 'stay.pets_allowed': true } }]],
    ['smoking_allowed false', { smoking_allowed: 'false' }, [{ term: { 'stay.smoking_allowed': false } }]],
    ['children_allowed', { children_allowed: '1' }, [{ term: { 'stay.children_allowed': true } }]],
    ['parties_allowed', { parties_allowed: 'true' }, [{ term: { 'stay.parties_allowed': true } }]],
    ['long_stay', { long_stay: 'true' }, [{ term: { 'stay.long_stay': true } }]],
    ['category_id (any)', { category_id: ['3', '5'] }, [{ terms: { category_ids: [3, 5] } }]],
    ['duration_max', { duration_max: '120' }, [{ range: { duration_min: { lte: 120 } } }]],
    ['languages (any)', { languages: 'ru,zh-Hans' }, [{ terms: { languages: ['ru', 'zh-Hans'] } }]],
    ['group_size_max', { group_size_max: '6' }, [{ range: { 'experience.group_size_max': { lte: 6 } } }]],
    ['same_day', { same_day: 'true' }, [{ term: { same_day: true } }]],
    ['price_unit', { price_unit: 'hour' }, [{ term: { price_unit: 'hour' } }]],
    ['vehicle_kind (any)', { vehicle_kind: ['car', 'van'] }, [{ terms: { 'transport.vehicle_kind': ['car', 'van'] } }]],
    ['transmission', { transmission: 'manual' }, [{ term: { 'transport.transmission': 'manual' } }]],
    ['seats_min', { seats_min: '5' }, [{ range: { 'transport.seats': { gte: 5 } } }]],
    ['food_format', { food_format: 'cafe' }, [{ term: { 'food.format': 'cafe' } }]],
    ['diets (all)', { diets: 'vegan,gluten_free' }, [{ term: { diets: 'vegan' } }, { term: { diets: 'gluten_free' } }]],
    ['alcohol', { alcohol: 'false' }, [{ term: { 'food.alcohol': false } }]],
    [
      'amenities (all)',
      { amenities: ['pool', 'wifi'] },
      [{ term: { amenities: 'pool' } }, { term: { amenities: 'wifi' } }],
    ],
    ['instant_book', { instant_book: 'true' }, [{ term: { instant_book: true } }]],
    ['rating_min', { rating_min: '4.5' }, [{ range: { rating_avg: { gte: 4.5 } } }]],
    ['rating_count_min', { rating_count_min: '50' }, [{ range: { rating_count: { gte: 50 } } }]],
  ];
  for (const [name, input, filter, mustNot = []] of cases) {
    it(name, () => {
      expect(buildFilterClauses(f(input), ctx)).toEqual({ filter, must_not: mustNot });
    });
  }

  it('dates: excludes listings with a blocked range intersecting [date_from, date_to)', () => {
    expect(buildFilterClauses(f({ date_from: '2026-12-20', date_to: '2026-12-27' }), ctx).must_not).toEqual([
      { range: { blocked: { gte: '2026-12-20', lt: '2026-12-27', relation: 'intersects' } } },
    ]);
  });

  it('dates: date_from alone (or equal to date_to) is that one day', () => {
    const one = [{ range: { blocked: { gte: '2026-12-31', lt: '2027-01-01', relation: 'intersects' } } }];
    expect(buildFilterClauses(f({ date_from: '2026-12-31' }), ctx).must_not).toEqual(one);
    expect(buildFilterClauses(f({ date_from: '2026-12-31', date_to: '2026-12-31' }), ctx).must_not).toEqual(one);
    expect(nextDay('2028-02-28')).toBe('2028-02-29');
  });

  it('guests: stays by max_guests, experiences by group size, other kinds unaffected', () => {
    expect(buildFilterClauses(f({ guests: '4' }), ctx).filter).toEqual([
      {
        bool: {
          should: [
            { bool: { filter: [{ term: { kind: 'stay' } }, { range: { 'stay.max_guests': { gte: 4 } } }] } },
            {
              bool: {
                filter: [{ term: { kind: 'experience' } }, { range: { 'experience.group_size_max': { gte: 4 } } }],
              },
            },
            { bool: { must_not: [{ terms: { kind: ['stay', 'experience'] } }] } },
          ],
          minimum_should_match: 1,
        },
      },
    ]);
  });

  it("price in the base currency: one range on the base price, which is a THB listing's own price", () => {
    expect(buildFilterClauses(f({ price_min: '100000', price_max: '200000' }), ctx).filter).toEqual([
      { range: { price_base_minor: { gte: 100000, lte: 200000 } } },
    ]);
  });

  it('price in another currency: bounds converted to the base through the FX table', () => {
    const [clause] = buildFilterClauses(f({ price_max: '2810', currency: 'USD' }), ctx).filter as any[];
    // 28.10 USD at 0.0281 USD per THB = 1000 THB = 100000 minor units.
    expect(clause.bool.should[1].bool.filter).toEqual([{ range: { price_base_minor: { lte: 100000 } } }]);
    expect(clause.bool.should[0].bool.filter).toEqual([
      { term: { currency: 'USD' } },
      { range: { price_minor: { lte: 2810 } } },
    ]);
  });

  it('price in a currency without a rate is a validation error on currency', () => {
    expect(() => buildFilterClauses(f({ price_max: '100', currency: 'JPY' }), ctx)).toThrowError(
      expect.objectContaining({ code: 'validation_error', details: { field: 'currency', reason: 'no_rate' } }),
    );
  });

  it('combines filters as conjunction, in a stable order', () => {
    const q = buildListingQuery(f({ kind: 'food', diets: 'vegan', rating_min: '4' }), ctx);
    expect(q).toEqual({
      bool: {
        filter: [{ term: { kind: 'food' } }, { term: { diets: 'vegan' } }, { range: { rating_avg: { gte: 4 } } }],
      },
    });
  });

  it('no filters at all is match_all', () => {
    expect(buildListingQuery(f({}), ctx)).toEqual({ match_all: {} });
  });
});

describe('q in the listing query: places selected exactly, the other words must match', () => {
  const lexicon = buildLexicon({
    places: [
      { id: 1, slug: 'phuket', level: 'region', popular: true, pathIds: [1], name: { en: 'Phuket', ru: 'Пхукет' } },
      { id: 2, slug: 'kata', level: 'district', popular: true, pathIds: [1, 2], name: { en: 'Kata', ru: 'Ката' } },
    ],
    categories: [],
    amenities: [],
    aliases: {},
    synonyms: { groups: {}, generic: { en: ['rental'] }, stop: {} },
    intents: { ...NO_INTENTS, concepts: { property_type: { villa: { en: ['villa'] } } } },
  });
  const withPlan = (q: string): QueryContext => ({ ...ctx, plan: understand(q, lexicon) });

  it('a place name is a filter on the place path, never a fuzzy text match', () => {
    const q = buildListingQuery(f({ q: 'Ката', kind: 'stay' }), withPlan('Ката')) as any;
    expect(q.bool.must).toBeUndefined();
    expect(q.bool.filter).toEqual([{ term: { kind: 'stay' } }, { terms: { place_path_ids: [2] } }]);
    expect(JSON.stringify(q)).not.toContain('fuzziness');
    // Only place names: nothing to rank by, the relevance order is the best rated.
    expect(hasText(f({ q: 'Ката' }), withPlan('Ката'))).toBe(false);
  });

  it('the other words must match a name or description; generic words only rank', () => {
    const q = buildListingQuery(f({ q: 'villa rental Kata' }), withPlan('villa rental Kata')) as any;
    expect(q.bool.filter).toEqual([{ terms: { place_path_ids: [2] } }]);
    expect(q.bool.must).toHaveLength(1);
    expect(JSON.stringify(q.bool.must)).toContain('"query":"villa"');
    expect(JSON.stringify(q.bool.must)).toContain('{"terms":{"stay.property_type":["villa"]}}');
    expect(JSON.stringify(q.bool.should)).toContain('"query":"rental"');
    expect(hasText(f({ q: 'villa Kata' }), withPlan('villa Kata'))).toBe(true);
  });

  it('words are never looked for in place names, and one typo at most is forgiven', () => {
    for (const field of TEXT_FIELDS) expect(field).not.toMatch(/^place_names/);
    for (const lang of ['en', 'ru', 'th', 'zh-Hans']) {
      for (const field of ['title', 'description']) {
        expect(TEXT_FIELDS.some((x) => x.startsWith(`${field}.${lang}`))).toBe(true);
      }
    }
    const q = buildListingQuery(f({ q: 'seafood' }), ctx) as any;
    expect(JSON.stringify(q)).toContain('"fuzziness":"AUTO:4,12"');
  });

  it('without a plan from the service, q is read as words only', () => {
    const q = buildListingQuery(f({ q: 'Kata villa' }), ctx) as any;
    expect(q.bool.must).toHaveLength(2);
    expect(q.bool.filter).toBeUndefined();
  });
});
