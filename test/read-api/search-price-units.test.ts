import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readApi } from '@guest/read-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { allPages, loadCatalog, loadCatalogText, search } from './search/support.ts';

/**
 * Prices a guest can trust: the price filter per price unit (a price per night and a price per
 * month are not on one scale), the total of the dates searched on each card, and suggestions
 * without look-alikes and with the categories the words name. The fixture catalog plus a stay
 * priced per month and a second "Kata scooter rental" in Kata.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ apps: [readApi] });
  await loadCatalog(t, 'catalog.ndjson');
  const stay = {
    type: 'listing',
    external_id: 'M1',
    kind: 'stay',
    status: 'published',
    title: { en: 'Kata condo by the month' },
    description: { en: 'For a long stay.' },
    original_lang: 'en',
    place: 'P-KATA',
    location: { lat: 7.8215, lon: 98.2975, mode: 'exact' },
    price: { amount_minor: 3_000_000, currency: 'THB', unit: 'month' },
    photos: [],
    instant_book: false,
    languages: ['en'],
    categories: [],
    amenities: [],
    blocked: [],
    created_at: '2026-06-01T00:00:00Z',
    stay: {
      property_type: 'condo',
      room_type: 'entire_place',
      bedrooms: 1,
      beds: 1,
      bathrooms: 1,
      max_guests: 2,
      beach_distance_m: 500,
      pets_allowed: false,
      smoking_allowed: false,
      children_allowed: true,
      parties_allowed: false,
      long_stay: true,
    },
    rating: { avg: 4.2, count: 3 },
  };
  const scooter = {
    type: 'listing',
    external_id: 'T4',
    kind: 'transport',
    status: 'published',
    title: { en: 'Kata scooter rental' },
    description: { en: 'Another shop, the same name.' },
    original_lang: 'en',
    place: 'P-KATA',
    location: { lat: 7.823, lon: 98.298, mode: 'exact' },
    price: { amount_minor: 25000, currency: 'THB', unit: 'day' },
    photos: [],
    instant_book: true,
    languages: ['en'],
    categories: ['rental'],
    amenities: [],
    blocked: [],
    created_at: '2026-06-01T00:00:00Z',
    transport: { vehicle_kind: 'scooter', transmission: 'automatic', seats: 2 },
    rating: { avg: 4.0, count: 5 },
  };
  await loadCatalogText(t, `${JSON.stringify(stay)}\n${JSON.stringify(scooter)}\n`);
});
afterAll(async () => t?.close());

// Nightly stays of the fixture, in THB (S3 is 50 USD).
const NIGHTLY = { S1: 450000, S2: 150000, S3: 177936, S4: 120000 };

function histogramOf(prices: number[]): number[] {
  const max = Math.max(...prices);
  const h = new Array<number>(24).fill(0);
  for (const p of prices) {
    let i = 0;
    while (i < 23 && p >= max * ((i + 1) / 24) ** 2) i++;
    h[i]!++;
  }
  return h;
}

const ids = (items: Array<{ id: number; title: string }>) => items.map((i) => i.title).sort();

describe('the price filter per price unit', () => {
  it('gives each unit of the kind its own range and histogram: nightly stays are not squeezed by monthly ones', async () => {
    const res = await search(t, 'price-range', { kind: 'stay' });
    expect(res.status).toBe(200);
    // The whole scope still reaches the monthly price: the nightly stays sit in its first bars.
    expect(res.body.max_minor).toBe(3_000_000);
    expect(res.body.histogram.slice(0, 10).reduce((a: number, b: number) => a + b, 0)).toBe(4);
    expect(res.body.units).toEqual([
      {
        price_unit: 'night',
        count: 4,
        min_minor: 120000,
        max_minor: 450000,
        histogram: histogramOf(Object.values(NIGHTLY)),
      },
      {
        price_unit: 'month',
        count: 1,
        min_minor: 3_000_000,
        max_minor: 3_000_000,
        histogram: histogramOf([3_000_000]),
      },
    ]);
  });

  it('converts every unit’s bounds to the requested currency', async () => {
    const usd = await search(t, 'price-range', { kind: 'stay', currency: 'USD' });
    // 1,200 THB · 0.0281 = 33.72 USD; 4,500 THB · 0.0281 = 126.45 USD.
    expect(usd.body.units[0]).toMatchObject({ price_unit: 'night', min_minor: 3372, max_minor: 12645 });
  });

  it('price_unit applies to every kind: a nightly limit leaves the monthly stay out instead of comparing it', async () => {
    const cheap = await allPages(t, { kind: 'stay', price_unit: 'night', price_max: 200000 });
    expect(ids(cheap)).toEqual(['Karon family apartment', 'Patong party hostel room', 'Sukhumvit city condo']);
    const monthly = await allPages(t, { kind: 'stay', price_unit: 'month' });
    expect(ids(monthly)).toEqual(['Kata condo by the month']);
    const count = await search(t, 'count', { kind: 'stay', price_unit: 'night', price_max: 200000 });
    expect(count.body.count).toBe(3);
    const map = await search(t, 'map', { kind: 'stay', price_unit: 'month', zoom: 14 });
    expect(map.body.points.map((p: { price_minor: number }) => p.price_minor)).toEqual([3_000_000]);
  });
});

describe('the total of the dates searched on the cards', () => {
  it('nightly and daily prices times the nights, a monthly one as 30 nights; none for other units', async () => {
    const items = await allPages(t, { date_from: '2027-03-01', date_to: '2027-03-08' });
    const byTitle = new Map(items.map((i) => [i.title, i]));
    expect(byTitle.get('Karon family apartment').total).toEqual({ nights: 7, total_minor: 1_050_000, currency: 'THB' });
    expect(byTitle.get('Patong party hostel room').total).toEqual({ nights: 7, total_minor: 35000, currency: 'USD' });
    expect(byTitle.get('Kata condo by the month').total).toEqual({ nights: 7, total_minor: 700_000, currency: 'THB' });
    expect(byTitle.get('Karon jeep with driver').total).toEqual({ nights: 7, total_minor: 1_400_000, currency: 'THB' });
    expect(byTitle.get('Kata reef diving trip').total).toBeUndefined();
    expect(byTitle.get('Kata vegan cafe').total).toBeUndefined();
  });

  it('one day without date_to; no total without dates', async () => {
    const one = await allPages(t, { date_from: '2027-03-01', kind: 'stay' });
    expect(one.find((i) => i.title === 'Karon family apartment').total).toEqual({
      nights: 1,
      total_minor: 150000,
      currency: 'THB',
    });
    const none = await allPages(t, { kind: 'stay' });
    expect(none.every((i) => i.total === undefined)).toBe(true);
  });
});

describe('suggestions', () => {
  it('name listings a guest could not tell apart once', async () => {
    const res = await search(t, 'suggest', { q: 'scoot', lang: 'en' });
    expect(res.body.listings).toEqual([
      { id: expect.any(Number), kind: 'transport', title: 'Kata scooter rental', place_name: 'Kata' },
    ]);
  });

  it('name the category a word names, in any language', async () => {
    const diving = await search(t, 'suggest', { q: 'diving', lang: 'en' });
    expect(diving.body.categories).toEqual([
      { id: expect.any(Number), code: 'diving', kind: 'experience', name: 'Diving' },
    ]);
    const massage = await search(t, 'suggest', { q: 'массаж', lang: 'ru' });
    expect(massage.body.categories).toEqual([
      { id: expect.any(Number), code: 'massage', kind: 'service', name: 'Массаж' },
    ]);
    // The id is the one category_id takes.
    const found = await allPages(t, { kind: 'service', category_id: massage.body.categories[0].id });
    expect(ids(found)).toEqual(['Kata Thai massage at home']);
    // With a kind, only that kind's categories.
    expect((await search(t, 'suggest', { q: 'diving', kind: 'food' })).body.categories).toEqual([]);
    expect((await search(t, 'suggest', { q: 'Kata' })).body.categories).toEqual([]);
  });
});
