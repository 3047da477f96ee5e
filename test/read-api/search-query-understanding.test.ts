import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '@guest/runtime';
import { readApi } from '@guest/read-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { http } from '../support/http.ts';
import { allPages, exactCards, loadCatalogText, search } from './search/support.ts';

/**
 * What `q` means, on the real engine: the places it names are selected exactly (listings feed,
 * count, map, events, suggest alike), a typo still finds them, the other words match names,
 * descriptions, categories, amenities and property types, Thai and Chinese without spaces find
 * what the spaced words find, and generic words never empty an answer.
 */
const NOW = '2026-12-01T03:00:00Z';
const names = (en: string, ru: string, th: string, zh: string) => ({ en, ru, th, 'zh-Hans': zh });
const place = (
  id: string,
  parent: string | null,
  level: string,
  slug: string,
  name: object,
  lat: number,
  lon: number,
) => ({
  type: 'place',
  external_id: id,
  parent,
  level,
  slug,
  name,
  timezone: 'Asia/Bangkok',
  currency: 'THB',
  center: { lat, lon },
});
let n = 0;
function listing(
  id: string,
  kind: string,
  placeId: string,
  title: object,
  extra: Record<string, unknown> = {},
  at: [number, number] = [7.84, 98.33],
) {
  n++;
  return {
    type: 'listing',
    external_id: id,
    kind,
    status: 'published',
    title,
    description: { en: 'Friendly hosts.' },
    original_lang: 'en',
    place: placeId,
    location: { lat: at[0], lon: at[1], mode: 'exact' },
    price: { amount_minor: 100000 + n, currency: 'THB', unit: kind === 'stay' ? 'night' : 'item' },
    photos: [{ thumb: `https://img.example/${id}/480.jpg`, medium: `https://img.example/${id}/1600.jpg`, large: null }],
    instant_book: false,
    languages: ['en'],
    categories: [],
    amenities: [],
    created_at: '2026-03-01T10:00:00Z',
    ...extra,
  };
}
const stay = (type: string) => ({
  stay: {
    property_type: type,
    room_type: 'entire_place',
    bedrooms: 2,
    beds: 2,
    bathrooms: 1,
    max_guests: 4,
    beach_distance_m: null,
    pets_allowed: false,
    smoking_allowed: false,
    children_allowed: true,
    parties_allowed: false,
    long_stay: false,
  },
});
const CHALONG: [number, number] = [7.8446, 98.3375];
const CHAWENG: [number, number] = [9.5318, 100.0614];
const KATA: [number, number] = [7.8206, 98.2986];
const BKK: [number, number] = [13.737, 100.56];
const records = [
  { type: 'currency', code: 'THB', name: { en: 'Thai baht' }, symbol: '฿', minor_units: 2 },
  {
    type: 'category',
    kind: 'transport',
    code: 'car_rental',
    name: names('Car rental', 'Аренда авто', 'เช่ารถยนต์', '汽车租赁'),
  },
  {
    type: 'category',
    kind: 'transport',
    code: 'boat_charter',
    name: names('Boat charter', 'Аренда лодок', 'เช่าเรือ', '包船'),
  },
  { type: 'category', kind: 'food', code: 'cafe', name: names('Cafés', 'Кафе', 'คาเฟ่', '咖啡馆') },
  { type: 'category', kind: 'service', code: 'massage', name: names('Massage', 'Массаж', 'นวด', '按摩') },
  { type: 'category', kind: 'service', code: 'cleaning', name: names('Cleaning', 'Уборка', 'ทำความสะอาด', '清洁') },
  { type: 'category', kind: 'event', code: 'music', name: names('Music', 'Музыка', 'ดนตรี', '音乐') },
  {
    type: 'amenity',
    code: 'pool',
    group: 'facilities',
    kinds: ['stay'],
    name: names('Pool', 'Бассейн', 'สระว่ายน้ำ', '泳池'),
  },
  place('P-TH', null, 'country', 'thailand', names('Thailand', 'Таиланд', 'ประเทศไทย', '泰国'), 13.75, 100.5),
  place('P-PHUKET', 'P-TH', 'region', 'phuket', names('Phuket', 'Пхукет', 'ภูเก็ต', '普吉'), 7.88, 98.39),
  place('P-CHALONG', 'P-PHUKET', 'district', 'chalong', names('Chalong', 'Чалонг', 'ฉลอง', '查龙'), ...CHALONG),
  place('P-KATA', 'P-PHUKET', 'district', 'kata', names('Kata', 'Ката', 'กะตะ', '卡塔'), ...KATA),
  place(
    'P-KATA-NOI',
    'P-KATA',
    'area',
    'kata-noi',
    names('Kata Noi', 'Ката Ной', 'กะตะน้อย', '小卡塔'),
    7.8118,
    98.2962,
  ),
  place('P-SAMUI', 'P-TH', 'region', 'koh-samui', names('Koh Samui', 'Самуи', 'เกาะสมุย', '苏梅岛'), 9.51, 100.01),
  place('P-CHAWENG', 'P-SAMUI', 'district', 'chaweng', names('Chaweng', 'Чавенг', 'เฉวง', '查汶'), ...CHAWENG),
  place('P-BKK', 'P-TH', 'region', 'bangkok', names('Bangkok', 'Бангкок', 'กรุงเทพมหานคร', '曼谷'), 13.75, 100.5),
  listing(
    'CH-VILLA',
    'stay',
    'P-CHALONG',
    names('Chalong pool villa', 'Вилла в Чалонге', 'วิลล่าฉลอง', '查龙别墅'),
    { ...stay('villa'), amenities: ['pool'] },
    CHALONG,
  ),
  listing(
    'CH-CAR',
    'transport',
    'P-CHALONG',
    { en: 'Car for rent in Chalong' },
    { categories: ['car_rental'], transport: { vehicle_kind: 'car', transmission: 'automatic', seats: 4 } },
    CHALONG,
  ),
  listing(
    'CW-VILLA',
    'stay',
    'P-CHAWENG',
    names('Chaweng beach villa', 'Вилла на Чавенге', 'วิลล่าเฉวง', '查汶别墅'),
    stay('villa'),
    CHAWENG,
  ),
  listing(
    'CW-CLEAN',
    'service',
    'P-CHAWENG',
    { en: 'Villa cleaning, Chaweng', th: 'ทำความสะอาดวิลล่า เฉวง' },
    { categories: ['cleaning'], service: { duration_min: 60, same_day: true } },
    CHAWENG,
  ),
  listing(
    'CW-BOAT',
    'transport',
    'P-CHAWENG',
    { en: 'Speedboat charter in Chaweng' },
    { categories: ['boat_charter'], transport: { vehicle_kind: 'boat', transmission: 'automatic', seats: 8 } },
    CHAWENG,
  ),
  listing(
    'KA-CAFE',
    'food',
    'P-KATA',
    { en: 'Garden café, Kata', ru: 'Кафе в саду, Ката' },
    { categories: ['cafe'], food: { format: 'cafe', diets: [], alcohol: false } },
    KATA,
  ),
  listing('KA-APT', 'stay', 'P-KATA', { en: 'Kata apartment', ru: 'Апартаменты, Ката' }, stay('apartment'), KATA),
  // Written in Thai only: found by its facts (kind, place, pets, beach, long stays) from any language.
  listing(
    'KA-PETS',
    'stay',
    'P-KATA',
    { th: 'บ้านสวนกะตะ' },
    {
      original_lang: 'th',
      description: { th: 'บ้านเงียบ' },
      stay: { ...stay('house').stay, pets_allowed: true, beach_distance_m: 300, long_stay: true },
    },
    KATA,
  ),
  listing(
    'BK-MASSAGE',
    'service',
    'P-BKK',
    { en: 'Thai massage at home, Bangkok', th: 'นวดแผนไทยถึงบ้าน กรุงเทพมหานคร' },
    { categories: ['massage'], service: { duration_min: 60, same_day: true } },
    BKK,
  ),
  listing(
    'BK-CAFE',
    'food',
    'P-BKK',
    { en: 'Rooftop café, Bangkok', th: 'คาเฟ่ดาดฟ้า กรุงเทพมหานคร' },
    { categories: ['cafe'], food: { format: 'cafe', diets: [], alcohol: false } },
    BKK,
  ),
  ...[
    ['EV-CH', 'chalong-jazz', 'P-CHALONG', 'Chalong jazz evening', CHALONG],
    ['EV-CW', 'chaweng-jazz', 'P-CHAWENG', 'Chaweng jazz evening', CHAWENG],
  ].map(([id, slug, placeId, title, at]) => ({
    type: 'event',
    external_id: id,
    slug,
    status: 'published',
    title: { en: title },
    description: { en: 'Live music.' },
    original_lang: 'en',
    category: 'music',
    place: placeId,
    venue: { name: { en: 'The bar' }, lat: (at as number[])[0], lon: (at as number[])[1] },
    timezone: 'Asia/Bangkok',
    entry: 'free',
    price: { amount_minor: 0, currency: 'THB' },
    audience: 'adults',
    crowd: 'small',
    event_lang: 'en',
    schedule: [{ date: '2026-12-02', start: '20:00', end: '23:00' }],
  })),
];

let t: TestApp;
const ids = new Map<number, string>();
beforeAll(async () => {
  t = await startTestApp({ apps: [readApi], clock: fixedClock(NOW) });
  await loadCatalogText(t, records.map((r) => JSON.stringify(r)).join('\n'));
  const { rows } = await t.sql.query<{ id: number; external_id: string }>('select id, external_id from listings');
  for (const r of rows) ids.set(Number(r.id), r.external_id);
});
afterAll(async () => t?.close());

/** External ids of the exact matches of the whole feed, sorted; the count and the map total must agree. */
async function found(q: string, params: Record<string, string> = {}): Promise<string[]> {
  const items = exactCards(await allPages(t, { q, lang: 'en', limit: 2, ...params }));
  const got = items.map((i) => ids.get(i.id)!).sort();
  const count = await search(t, 'count', { q, ...params });
  expect(count.body.count, `count of "${q}"`).toBe(got.length);
  return got;
}
/** The first card of the feed. */
async function first(q: string): Promise<string> {
  const res = await search(t, 'listings', { q, lang: 'en', limit: 1 });
  return ids.get(res.body.items[0].id)!;
}

/** The first feed page of `q`: ids, related marks and the words it says no result has. */
async function page(q: string, params: Record<string, string> = {}) {
  const res = await search(t, 'listings', { q, lang: 'en', ...params });
  expect(res.status, res.text).toBe(200);
  return {
    ids: (res.body.items as Array<{ id: number }>).map((i) => ids.get(i.id)!),
    related: (res.body.items as Array<{ id: number; related?: true }>)
      .filter((i) => i.related)
      .map((i) => ids.get(i.id)!),
    unmatched: res.body.unmatched_terms as string[],
  };
}

describe('intents: what guests mean by the words they type (issue 31)', () => {
  it('"pet friendly" and its sisters in four languages select stays that allow pets, whatever language they are written in', async () => {
    for (const q of ['pet friendly Kata', 'можно с собакой Ката', 'พาสัตว์เลี้ยงกะตะ', '卡塔可带宠物', 'dog friendly']) {
      expect(await found(q), q).toEqual(['KA-PETS']);
    }
  });

  it('near the beach, long stays: the same filters as the parameters', async () => {
    for (const q of ['near the beach', 'у моря', 'ติดทะเล', '海边']) expect(await found(q), q).toEqual(['KA-PETS']);
    expect(await found('monthly Kata')).toEqual(['KA-PETS']);
    expect(await found('house Kata')).toEqual(['KA-PETS']);
  });

  it('a kind word selects the kind: a place to stay in Kata, where to eat in Kata', async () => {
    expect(await found('ที่พักในกะตะ')).toEqual(['KA-APT', 'KA-PETS']);
    expect(await found('где поесть на Кате')).toEqual(['KA-CAFE']);
  });

  it('near me sorts by distance when the client sends near, and is dropped otherwise', async () => {
    expect((await page('villa near me', { near: `${CHAWENG[0]},${CHAWENG[1]}` })).ids[0]).toBe('CW-VILLA');
    expect((await page('villa near me', { near: `${CHALONG[0]},${CHALONG[1]}` })).ids[0]).toBe('CH-VILLA');
    expect(await found('villa near me')).toEqual(await found('villa'));
  });

  it('events: free, evening and paid read as the events filters', async () => {
    const slugs = async (q: string) => {
      const res = await http(t.url, 'GET', `/v1/events/upcoming?q=${encodeURIComponent(q)}`);
      expect(res.status, res.text).toBe(200);
      return (res.body.items as Array<{ slug: string }>).map((e) => e.slug).sort();
    };
    expect(await slugs('free jazz')).toEqual(['chalong-jazz', 'chaweng-jazz']);
    expect(await slugs('jazz tonight')).toEqual(['chalong-jazz', 'chaweng-jazz']);
    expect(await slugs('бесплатно Чалонг')).toEqual(['chalong-jazz']);
    expect(await slugs('paid jazz')).toEqual([]);
    expect(await slugs('jazz morning')).toEqual([]);
  });
});

describe('no empty answer while part of q matches; no noise when nothing meaningful does (issue 31)', () => {
  it('a word no listing has only ranks when the rest binds, and the answer says which words were left out', async () => {
    const p = await page('villa Chalong sunset');
    expect(p.ids[0]).toBe('CH-VILLA');
    expect(p.unmatched).toEqual(['sunset']);
    expect(await found('villa Chalong sunset')).toEqual(['CH-VILLA']);
    expect((await page('villa Chalong')).unmatched).toEqual([]);
  });

  it('a place with a word nothing there has: the place, and the word named as unmatched', async () => {
    expect(await found('zorbing Chalong')).toEqual(['CH-CAR', 'CH-VILLA']);
    expect((await page('zorbing Chalong')).unmatched).toEqual(['zorbing']);
  });

  it('something specific the catalog does not offer, and a destination it does not serve, find nothing', async () => {
    for (const q of ['golf Chalong', 'helicopter tour', 'villa Bali', 'ดำน้ำเกาะเต่า', '巴厘岛别墅']) {
      const p = await page(q);
      expect(p.ids, q).toEqual([]);
      expect(p.unmatched.length, q).toBe(1);
      expect((await search(t, 'count', { q })).body.count, q).toBe(0);
    }
  });

  it('few exact matches: related listings follow them, marked, and the count stays exact', async () => {
    // No apartment in Kata Noi: stays around it in Phuket follow, the Kata apartment first.
    const p = await page('apartment Kata Noi');
    expect(p.ids.length).toBeGreaterThan(0);
    expect(p.related).toEqual(p.ids);
    expect(p.ids[0]).toBe('KA-APT');
    expect((await search(t, 'count', { q: 'apartment Kata Noi' })).body.count).toBe(0);
    // An exact match comes first, unmarked.
    const chalong = await page('villa Chalong');
    expect(chalong.ids[0]).toBe('CH-VILLA');
    expect(chalong.related).not.toContain('CH-VILLA');
    // Other sorts than relevance list the exact matches only.
    expect((await page('apartment Kata Noi', { sort: 'price_asc' })).ids).toEqual([]);
  });

  it('an order the words ask for ("cheap") orders the exact matches, then the related ones', async () => {
    const prices = async (q: string) => {
      const res = await search(t, 'listings', { q, lang: 'en' });
      expect(res.status, res.text).toBe(200);
      return (res.body.items as Array<{ id: number; price_minor: number; related?: true }>).map((i) => ({
        id: ids.get(i.id)!,
        price: i.price_minor,
        related: !!i.related,
      }));
    };
    const ascending = (xs: Array<{ price: number }>) => xs.every((x, i) => i === 0 || xs[i - 1]!.price <= x.price);
    // No apartment in Kata Noi: the stays around it, cheapest first (by relevance, KA-APT led).
    const none = await prices('cheap apartment Kata Noi');
    expect(none.length).toBeGreaterThan(1);
    expect(none.every((c) => c.related)).toBe(true);
    expect(ascending(none)).toBe(true);
    expect(none.map((c) => c.id)).toContain('KA-APT');
    // One exact match: it first, unmarked, then the related ones cheapest first.
    const one = await prices('cheap villa Chalong');
    expect(one[0]).toMatchObject({ id: 'CH-VILLA', related: false });
    expect(one.length).toBeGreaterThan(1);
    expect(one.slice(1).every((c) => c.related)).toBe(true);
    expect(ascending(one.slice(1))).toBe(true);
  });
});

describe('places named in q are selected exactly', () => {
  it('in every language, and never fuzzed into a similar name (Chalong is not Chaweng)', async () => {
    for (const q of ['Chalong', 'Чалонг', 'ฉลอง', '查龙']) expect(await found(q), q).toEqual(['CH-CAR', 'CH-VILLA']);
    for (const q of ['Chaweng', 'Чавенг', 'เฉวง'])
      expect(await found(q), q).toEqual(['CW-BOAT', 'CW-CLEAN', 'CW-VILLA']);
    // Кафе is a café, not a listing in Ката.
    expect(await found('Ката')).toEqual(['KA-APT', 'KA-CAFE', 'KA-PETS']);
    expect(await found('Кафе')).toEqual(['BK-CAFE', 'KA-CAFE']);
  });

  it('the map counts the same place', async () => {
    const res = await search(t, 'map', { q: 'Chalong', zoom: 16, bbox: '97,6,101,14' });
    expect(res.status, res.text).toBe(200);
    expect(res.body.total).toBe(2);
    for (const p of res.body.points) expect(p.lat).toBeLessThan(8);
  });

  it('a place and what lies below it; short forms; Russian word forms', async () => {
    expect(await found('Phuket')).toEqual(['CH-CAR', 'CH-VILLA', 'KA-APT', 'KA-CAFE', 'KA-PETS']);
    for (const q of ['Samui', 'สมุย', 'Самуи', 'на Самуи', '苏梅'])
      expect(await found(q), q).toEqual(['CW-BOAT', 'CW-CLEAN', 'CW-VILLA']);
    expect(await found('в Пхукете')).toEqual(['CH-CAR', 'CH-VILLA', 'KA-APT', 'KA-CAFE', 'KA-PETS']);
  });

  it('one wrong or swapped letter still finds the place', async () => {
    for (const q of ['Chalogn', 'Cahlong', 'Chalonk']) expect(await found(q), q).toEqual(['CH-CAR', 'CH-VILLA']);
  });

  it('events read q the same way', async () => {
    const slugs = async (q: string) => {
      const res = await http(t.url, 'GET', `/v1/events/upcoming?q=${encodeURIComponent(q)}`);
      expect(res.status, res.text).toBe(200);
      return (res.body.items as Array<{ slug: string }>).map((e) => e.slug);
    };
    expect(await slugs('Chalong')).toEqual(['chalong-jazz']);
    expect(await slugs('Chalogn jazz')).toEqual(['chalong-jazz']);
    expect(await slugs('Samui')).toEqual(['chaweng-jazz']);
    expect(await slugs('jazz')).toHaveLength(2);
  });
});

describe('Thai and Chinese', () => {
  it('without spaces finds what the spaced words find', async () => {
    expect(await found('นวดแผนไทยกรุงเทพ')).toEqual(await found('นวดแผนไทย กรุงเทพ'));
    expect(await found('นวดแผนไทยกรุงเทพ')).toEqual(['BK-MASSAGE']);
    expect(await found('查龙别墅')).toEqual(['CH-VILLA']);
    expect(await found('วิลล่าเฉวง')).toEqual(await found('วิลล่า เฉวง'));
  });

  it('suggest offers the place from every prefix of two letters or more', async () => {
    const name = 'กรุงเทพมหานคร';
    const letters = [...new Intl.Segmenter('th', { granularity: 'grapheme' }).segment(name)].map((s) => s.segment);
    for (let i = 2; i <= letters.length; i++) {
      const q = letters.slice(0, i).join('');
      const res = await search(t, 'suggest', { q, lang: 'th' });
      expect(res.status, res.text).toBe(200);
      expect(
        res.body.places.map((p: { slug: string }) => p.slug),
        q,
      ).toContain('bangkok');
    }
    const samui = await search(t, 'suggest', { q: 'สมุย', lang: 'th' });
    expect(samui.body.places[0].slug).toBe('koh-samui');
  });
});

describe('vocabulary: categories, amenities, synonyms, generic words', () => {
  it('category and amenity names in every language', async () => {
    for (const q of ['Car rental', 'Аренда авто', 'เช่ารถยนต์', '汽车租赁'])
      expect(await found(q), q).toEqual(['CH-CAR']);
    for (const q of ['pool', 'Бассейн', 'สระว่ายน้ำ', '泳池']) expect(await found(q), q).toEqual(['CH-VILLA']);
  });

  it('generic words and synonyms never empty an answer', async () => {
    for (const q of ['car rental', 'car hire', 'rent a car', 'car']) expect(await found(q), q).toEqual(['CH-CAR']);
    for (const q of ['boat tour', 'boat rental', 'boat']) expect(await found(q), q).toEqual(['CW-BOAT']);
    expect(await found('villa for rent')).toContain('CH-VILLA');
    expect(await found('car rental Chalong')).toEqual(['CH-CAR']);
    expect(await found('car rental Chaweng')).toEqual([]);
  });

  it('a stay of the type asked for ranks above a listing that only mentions it', async () => {
    expect(await first('villa Chaweng')).toBe('CW-VILLA');
    expect(await first('วิลล่า เฉวง')).toBe('CW-VILLA');
  });

  it('words no listing has find nothing', async () => {
    expect(await found('snowboard')).toEqual([]);
    expect(await found('snowboard Chalong')).toEqual([]);
  });
});
