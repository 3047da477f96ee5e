import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readApi } from '@guest/read-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { expectEnvelope } from '../support/http.ts';
import { loadCatalog, search } from './search/support.ts';

/** Spec 4.7 price range (24 quadratic segments, FX conversion) and suggest (places, listings). */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ apps: [readApi] });
  await loadCatalog(t, 'catalog.ndjson');
});
afterAll(async () => t?.close());

// Base (THB) prices of the 15 published fixture listings; S3 is 50 USD, E3 100 EUR.
const BASE = {
  S1: 450000,
  S2: 150000,
  S3: 177936,
  S4: 120000,
  E1: 350000,
  E2: 150000,
  E3: 381679,
  V1: 80000,
  V2: 250000,
  T1: 30000,
  T2: 200000,
  T3: 120000,
  F1: 30000,
  F2: 60000,
  F3: 40000,
};

/** The histogram the spec defines: segment i holds prices from max·(i/24)² to max·((i+1)/24)². */
function expectedHistogram(prices: number[]): number[] {
  const max = Math.max(...prices);
  const h = new Array<number>(24).fill(0);
  for (const p of prices) {
    let i = 0;
    while (i < 23 && p >= max * ((i + 1) / 24) ** 2) i++;
    h[i]!++;
  }
  return h;
}

describe('GET /v1/search/price-range', () => {
  it('all kinds: min, max and 24 segments on the quadratic scale, in the base currency', async () => {
    const res = await search(t, 'price-range');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      currency: 'THB',
      min_minor: 30000,
      max_minor: 450000,
      histogram: expectedHistogram(Object.values(BASE)),
      units: expect.any(Array),
    });
    expect(res.body.histogram).toHaveLength(24);
    expect(res.body.histogram.reduce((a: number, b: number) => a + b, 0)).toBe(15);
    expect(res.body.histogram[23]).toBeGreaterThan(0);
  });

  it('kind narrows it', async () => {
    const res = await search(t, 'price-range', { kind: 'food' });
    expect(res.body).toEqual({
      currency: 'THB',
      min_minor: 30000,
      max_minor: 60000,
      histogram: expectedHistogram([BASE.F1, BASE.F2, BASE.F3]),
      units: [
        {
          price_unit: 'item',
          count: 3,
          min_minor: 30000,
          max_minor: 60000,
          histogram: expectedHistogram([BASE.F1, BASE.F2, BASE.F3]),
        },
      ],
    });
    expect((await search(t, 'price-range', { kind: 'all' })).body.max_minor).toBe(450000);
  });

  it('another currency: bounds converted through the FX rates, same segments', async () => {
    const thb = await search(t, 'price-range');
    const usd = await search(t, 'price-range', { currency: 'USD' });
    // 300 THB · 0.0281 = 8.43 USD; 4500 THB · 0.0281 = 126.45 USD.
    expect(usd.body).toEqual({
      currency: 'USD',
      min_minor: 843,
      max_minor: 12645,
      histogram: thb.body.histogram,
      units: expect.any(Array),
    });
  });

  it('takes only kind and currency: other filters are refused by name; bad values too', async () => {
    expect(expectEnvelope(await search(t, 'price-range', { q: 'Kata' }), 400, 'validation_error').details.field).toBe(
      'q',
    );
    expect(
      expectEnvelope(await search(t, 'price-range', { bbox: '1,2,3,4' }), 400, 'validation_error').details.field,
    ).toBe('bbox');
    expect(
      expectEnvelope(await search(t, 'price-range', { kind: 'boat' }), 400, 'validation_error').details.field,
    ).toBe('kind');
    expect(
      expectEnvelope(await search(t, 'price-range', { currency: 'JPY' }), 400, 'validation_error').details.field,
    ).toBe('currency');
    expect((await search(t, 'price-range', { lang: 'ru' })).status).toBe(200);
  });

  it('is empty when there are no prices', async () => {
    const empty = await startTestApp({ apps: [readApi] });
    try {
      await loadCatalog(empty, 'catalog-empty.ndjson'); // one place, no listings
      const res = await search(empty, 'price-range', { currency: 'THB' });
      expect(res.body).toEqual({ currency: 'THB', min_minor: null, max_minor: null, histogram: [], units: [] });
    } finally {
      await empty.close();
    }
  });
});

describe('GET /v1/search/suggest', () => {
  const placeSlugs = (res: any) => res.body.places.map((p: any) => p.slug);

  it('places by name in any of the four languages, whole or prefix', async () => {
    for (const q of ['Kata', 'kat', 'Ката', 'Кат', 'กะตะ', '卡塔']) {
      const res = await search(t, 'suggest', { q });
      expect(res.status).toBe(200);
      expect(placeSlugs(res), q).toContain('kata');
    }
    for (const q of ['Пхук', 'ภูเก็ต', '普吉', 'phu'])
      expect(placeSlugs(await search(t, 'suggest', { q })), q).toContain('phuket');
  });

  it('small typos still find the place', async () => {
    const typos: Array<[string, string]> = [
      ['Phukte', 'phuket'],
      ['Karn', 'karon'],
      ['Patnog', 'patong'],
      ['Бангок', 'bangkok'],
    ];
    for (const [q, slug] of typos) {
      expect(placeSlugs(await search(t, 'suggest', { q })), q).toContain(slug);
    }
  });

  it('answers in the request language with the full name', async () => {
    const res = await search(t, 'suggest', { q: 'Kata', lang: 'ru' });
    expect(res.body.places[0]).toEqual({
      id: expect.any(Number),
      slug: 'kata',
      name: 'Ката',
      name_full: expect.stringContaining('Ката'),
      level: 'district',
    });
  });

  it('listings by title, with their place name', async () => {
    const res = await search(t, 'suggest', { q: 'scoot', lang: 'en' });
    expect(res.body.listings).toEqual([
      { id: expect.any(Number), kind: 'transport', title: 'Kata scooter rental', place_name: 'Kata' },
    ]);
    const ru = await search(t, 'suggest', { q: 'Вилла', lang: 'ru' });
    expect(ru.body.listings.map((l: any) => l.title)).toContain('Вилла с видом на море');
  });

  it('kind narrows listings and places (only places holding listings of that kind)', async () => {
    const food = await search(t, 'suggest', { q: 'Kata', kind: 'food', lang: 'en' });
    expect(food.body.listings.map((l: any) => l.title)).toEqual(['Kata vegan cafe']);
    expect(placeSlugs(food)).toContain('kata');
    expect(placeSlugs(await search(t, 'suggest', { q: 'Sukhumvit', kind: 'food' }))).toEqual([]);
    expect(placeSlugs(await search(t, 'suggest', { q: 'Sukhumvit', kind: 'stay' }))).toEqual(['sukhumvit']);
  });

  it('kind=all is accepted as on the other search routes, and is the same as no kind', async () => {
    const all = await search(t, 'suggest', { q: 'Kata', kind: 'all', lang: 'en' });
    expect(all.status).toBe(200);
    expect(all.body).toEqual((await search(t, 'suggest', { q: 'Kata', lang: 'en' })).body);
  });

  it('nothing for gibberish; q is required, kind must be known', async () => {
    expect((await search(t, 'suggest', { q: 'qqxzzv' })).body).toEqual({ places: [], listings: [], categories: [] });
    expect(expectEnvelope(await search(t, 'suggest', {}), 400, 'validation_error').details.field).toBe('q');
    expect(expectEnvelope(await search(t, 'suggest', { q: '  ' }), 400, 'validation_error').details.field).toBe('q');
    // No word in it: absent, as on every search route; suggest requires q.
    expect(expectEnvelope(await search(t, 'suggest', { q: '?!.' }), 400, 'validation_error').details.field).toBe('q');
    expect(
      expectEnvelope(await search(t, 'suggest', { q: 'Kata', kind: 'boat' }), 400, 'validation_error').details.field,
    ).toBe('kind');
  });
});
