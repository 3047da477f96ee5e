import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readApi } from '@guest/read-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { expectEnvelope } from '../support/http.ts';
import { allPages, codes, exactCards, loadCatalog, search } from './search/support.ts';

/**
 * Spec 4.7: every shared filter filters, alone and combined, and means the same in the feed,
 * the count and the map. Fixture: test/fixtures/search/catalog.ndjson (15 published listings,
 * one draft; S4 is `city_only`, so it is never on the map).
 */
let t: TestApp;
const category: Record<string, number> = {};
beforeAll(async () => {
  t = await startTestApp({ apps: [readApi] });
  await loadCatalog(t, 'catalog.ndjson');
  const { rows } = await t.sql.query<{ id: number; code: string }>('select id, code from categories');
  for (const r of rows) category[r.code] = r.id;
});
afterAll(async () => t?.close());

type Params = Record<string, string | number | boolean | Array<string | number>>;
const ALL = ['S1', 'S2', 'S3', 'S4', 'E1', 'E2', 'E3', 'V1', 'V2', 'T1', 'T2', 'T3', 'F1', 'F2', 'F3'];
const KATA = ['E1', 'F1', 'S1', 'T1', 'V1'];

/** The feed (every page), the count and the map total must all agree with `expected`. */
async function expectMatches(params: Params, expected: string[]) {
  // Listings related to `q` may follow the exact matches (marked `related`): the exact ones are the answer.
  const items = exactCards(await allPages(t, { ...params, lang: 'en', limit: 4 }));
  expect(codes(items), `feed for ${JSON.stringify(params)}`).toEqual([...expected].sort());
  const count = await search(t, 'count', params);
  expect(count.status).toBe(200);
  expect(count.body.count, `count for ${JSON.stringify(params)}`).toBe(expected.length);
  const map = await search(t, 'map', { ...params, zoom: 15 });
  expect(map.status).toBe(200);
  const onMap = expected.filter((c) => c !== 'S4');
  expect(map.body.total, `map total for ${JSON.stringify(params)}`).toBe(onMap.length);
  expect(map.body.points.length).toBe(onMap.length);
}

describe('every shared filter filters (feed, count and map agree)', () => {
  const cases: Array<[string, Params, string[]]> = [
    ['no filter: every published listing, drafts never', {}, ALL],
    ['kind=all', { kind: 'all' }, ALL],
    ['kind=stay', { kind: 'stay' }, ['S1', 'S2', 'S3', 'S4']],
    ['kind=experience', { kind: 'experience' }, ['E1', 'E2', 'E3']],
    ['kind=service', { kind: 'service' }, ['V1', 'V2']],
    ['kind=transport', { kind: 'transport' }, ['T1', 'T2', 'T3']],
    ['kind=food', { kind: 'food' }, ['F1', 'F2', 'F3']],
    ['bbox around Kata', { bbox: '98.29,7.81,98.305,7.83' }, KATA],
    ['near + radius_m (1 km around the Kata villa)', { near: '7.8195,98.299', radius_m: 1000 }, KATA],
    ['near + radius_m (150 m: the cafe is 124 m away)', { near: '7.8195,98.299', radius_m: 150 }, ['F1', 'S1']],
    ['near + radius_m (100 m)', { near: '7.8195,98.299', radius_m: 100 }, ['S1']],
    // S4 is city_only in Sukhumvit (centre 13.7373,100.56): in an area by its place's centre, off the map.
    ['bbox around Sukhumvit: the city_only listing by its place', { bbox: '100.55,13.73,100.57,13.745' }, ['S4']],
    ['bbox in Bangkok off the Sukhumvit centre', { bbox: '100.49,13.75,100.51,13.76' }, []],
    ['near + radius_m around Sukhumvit: the city_only listing', { near: '13.74,100.565', radius_m: 1000 }, ['S4']],
    ['near + radius_m short of the Sukhumvit centre', { near: '13.75,100.58', radius_m: 1000 }, []],
    ['q: district name in English', { q: 'Kata' }, KATA],
    ['q: district name in Russian, another word form', { q: 'Кате' }, KATA],
    ['q: district name in Thai', { q: 'กะตะ' }, KATA],
    ['q: district name in Chinese', { q: '卡塔' }, KATA],
    ['q: the city covers its districts', { q: 'Phuket' }, ALL.filter((c) => c !== 'S4')],
    ['q: city in Russian', { q: 'Бангкок' }, ['S4']],
    ['q: words from name, description and place together', { q: 'villa Kata' }, ['S1', 'V1']],
    ['q: a word from the description', { q: 'smoothies' }, ['F1']],
    ['q: nothing matches', { q: 'zzxqv' }, []],
    [
      'dates: a blocked range excludes',
      { kind: 'stay', date_from: '2026-12-21', date_to: '2026-12-23' },
      ['S2', 'S3', 'S4'],
    ],
    ['dates: one day', { kind: 'stay', date_from: '2026-12-25' }, ['S3', 'S4']],
    [
      'dates: check-in on the blocked range end (exclusive)',
      { kind: 'stay', date_from: '2026-12-27', date_to: '2026-12-30' },
      ['S1', 'S2', 'S3', 'S4'],
    ],
    [
      'dates: check-out on the blocked range start',
      { kind: 'stay', date_from: '2026-12-18', date_to: '2026-12-20' },
      ['S1', 'S2', 'S3', 'S4'],
    ],
    [
      'guests: stays and experiences by capacity, others unaffected',
      { guests: 5 },
      ['S1', 'E1', 'E2', 'V1', 'V2', 'T1', 'T2', 'T3', 'F1', 'F2', 'F3'],
    ],
    ['guests with kind=stay', { kind: 'stay', guests: 4 }, ['S1', 'S2']],
    [
      'price_min/price_max in the base currency (USD listing converted)',
      { price_min: 100000, price_max: 200000 },
      ['S2', 'S3', 'S4', 'E2', 'T2', 'T3'],
    ],
    ['price_max in USD', { price_max: 2000, currency: 'USD' }, ['T1', 'F1', 'F2', 'F3']],
    [
      'price_min in USD, USD listing compared exactly',
      { kind: 'stay', price_min: 5000, currency: 'USD' },
      ['S1', 'S3'],
    ],
    ['price_min in EUR', { price_min: 9000, currency: 'EUR' }, ['S1', 'E1', 'E3']],
    ['property_type (any of)', { property_type: 'villa,hostel' }, ['S1', 'S3']],
    ['room_type', { room_type: 'private_room' }, ['S3']],
    ['bedrooms_min', { bedrooms_min: 2 }, ['S1', 'S2']],
    ['beds_min', { beds_min: 4 }, ['S1']],
    ['bathrooms_min', { bathrooms_min: 2 }, ['S1']],
    ['beach_distance_max', { beach_distance_max: 500 }, ['S1', 'S3']],
    ['pets_allowed', { pets_allowed: true }, ['S2']],
    ['smoking_allowed', { smoking_allowed: true }, ['S3']],
    ['children_allowed=false', { children_allowed: false }, ['S3']],
    ['parties_allowed', { parties_allowed: true }, ['S3']],
    ['long_stay', { long_stay: true }, ['S1', 'S4']],
    ['duration_max', { duration_max: 120 }, ['E3', 'V1', 'V2']],
    ['languages (any of)', { languages: 'zh-Hans,th' }, ['S4', 'E2', 'E3', 'V1', 'T2', 'F2']],
    ['languages ru', { languages: 'ru' }, ['S1', 'E1', 'V2']],
    ['group_size_max', { group_size_max: 8 }, ['E1', 'E3']],
    ['same_day=true', { same_day: true }, ['E2', 'V1']],
    ['same_day=false', { same_day: false }, ['E1', 'E3', 'V2']],
    ['price_unit', { price_unit: 'item' }, ['V2', 'F1', 'F2', 'F3']],
    ['vehicle_kind (any of, repeated parameter)', { vehicle_kind: ['car', 'van'] }, ['T2', 'T3']],
    ['transmission', { transmission: 'automatic' }, ['T1', 'T3']],
    ['seats_min', { seats_min: 5 }, ['T2', 'T3']],
    ['food_format', { food_format: 'cafe' }, ['F1']],
    ['diets: one', { diets: 'vegetarian' }, ['F1', 'F3']],
    ['diets: all must match', { diets: 'vegan,vegetarian' }, ['F1']],
    ['diets: all must match, none has both', { diets: 'halal,vegetarian' }, []],
    ['alcohol', { alcohol: true }, ['F3']],
    ['amenities: one', { amenities: 'wifi' }, ['S1', 'S2', 'S3', 'S4', 'E1', 'F1', 'F3']],
    ['amenities: all must match', { amenities: ['pool', 'wifi'] }, ['S1', 'S4']],
    ['amenities: all must match (3)', { amenities: 'pool,wifi,kitchen' }, ['S1']],
    ['instant_book', { instant_book: true }, ['S1', 'S3', 'E1', 'E3', 'V1', 'T1', 'T3']],
    ['rating_min (listings without rating never pass)', { rating_min: 4.7 }, ['S1', 'E1', 'E2', 'E3']],
    ['rating_count_min (a listing without ratings has none)', { rating_count_min: 50 }, ['S1', 'E1', 'E2', 'T1', 'F1']],
    ['rating_min with rating_count_min', { rating_min: 4.5, rating_count_min: 50 }, ['S1', 'E1', 'E2', 'F1']],
    ['combined: kind + q + amenities', { kind: 'stay', q: 'Kata', amenities: 'pool' }, ['S1']],
    ['combined: bbox + instant_book', { bbox: '98.29,7.81,98.305,7.83', instant_book: true }, ['E1', 'S1', 'T1', 'V1']],
    ['combined: q in Russian + kind + rating', { q: 'Патонг', kind: 'experience', rating_min: 4.5 }, ['E2']],
    [
      'combined: price + dates + guests',
      { kind: 'stay', price_max: 200000, date_from: '2026-12-24', date_to: '2026-12-25', guests: 2 },
      ['S3', 'S4'],
    ],
  ];
  for (const [name, params, expected] of cases) {
    it(name, async () => expectMatches(params, expected));
  }

  it('a q without a word (punctuation only) is absent: the same answer, in the same order, as without q', async () => {
    const without = await allPages(t, { lang: 'en', limit: 4 });
    for (const q of ['!?', ' ... ', '-']) {
      const ids = (await allPages(t, { q, lang: 'en', limit: 4 })).map((i) => i.id);
      expect(ids, q).toEqual(without.map((i) => i.id));
      expect((await search(t, 'count', { q })).body.count).toBe(ALL.length);
    }
  });

  it('category_id (any of)', async () => {
    await expectMatches({ category_id: [category.diving!, category.cooking!] }, ['E1', 'E2']);
    await expectMatches({ category_id: String(category.rental) }, ['T1', 'T2']);
  });
});

describe('bad values are 400 validation_error naming the field', () => {
  const bad: Array<[string, Params, string]> = [
    ['malformed bbox', { bbox: '98,7,99' }, 'bbox'],
    ['bbox latitude out of range', { bbox: '98,7,99,95' }, 'bbox'],
    ['near latitude out of range', { near: '91,98' }, 'near'],
    ['near longitude out of range', { near: '7,181' }, 'near'],
    ['radius without near', { radius_m: 500 }, 'radius_m'],
    ['date_to before date_from', { date_from: '2026-12-10', date_to: '2026-12-01' }, 'date_to'],
    ['unknown kind', { kind: 'yacht' }, 'kind'],
    ['unknown transmission', { transmission: 'cvt' }, 'transmission'],
    ['unknown language', { languages: 'de' }, 'languages'],
    ['amenity not a code', { amenities: 'Pool!' }, 'amenities'],
    ['boolean typo', { pets_allowed: 'maybe' }, 'pets_allowed'],
    ['price_max below price_min', { price_min: 10, price_max: 5 }, 'price_max'],
    ['currency without a rate', { price_max: 100, currency: 'JPY' }, 'currency'],
  ];
  for (const route of ['listings', 'count', 'map'] as const) {
    for (const [name, params, field] of bad) {
      it(`${route}: ${name}`, async () => {
        const res = await search(t, route, route === 'map' ? { ...params, zoom: 10 } : params);
        expect(expectEnvelope(res, 400, 'validation_error').details.field).toBe(field);
      });
    }
  }

  it('listings: unknown sort, distance without near, limit out of range, foreign cursor', async () => {
    const cases: Array<[Params, string]> = [
      [{ sort: 'cheapest' }, 'sort'],
      [{ sort: 'distance' }, 'sort'],
      [{ limit: 0 }, 'limit'],
      [{ limit: t.config.SEARCH_LIMIT_MAX + 1 }, 'limit'],
      [{ cursor: 'not-a-cursor' }, 'cursor'],
    ];
    for (const [params, field] of cases) {
      const res = await search(t, 'listings', params);
      expect(expectEnvelope(res, 400, 'validation_error').details.field, JSON.stringify(params)).toBe(field);
    }
  });

  it('map: zoom is required and within 0..22', async () => {
    for (const zoom of [undefined, -1, 23, 'far']) {
      const res = await search(t, 'map', zoom === undefined ? {} : { zoom });
      expect(expectEnvelope(res, 400, 'validation_error').details.field).toBe('zoom');
    }
  });
});
