import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '@guest/runtime';
import { signAccessToken } from '@guest/auth';
import { readApi } from '@guest/read-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { expectEnvelope, http } from '../support/http.ts';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FIXTURES, loadCatalog, loadCatalogText } from './search/support.ts';

/**
 * `GET /v1/listings/{id}` (DESIGN.md section 7): the listing page from the index, as a client
 * sees it. The clock stands at 2026-11-27 10:00 in Bangkok, so the calendar runs from that day
 * (the place's zone) for 365 days and S1's blocked week (20–27 December) is inside it.
 */
let t: TestApp;
const ids = new Map<string, number>();
beforeAll(async () => {
  t = await startTestApp({ apps: [readApi], clock: fixedClock('2026-11-27T03:00:00Z') });
  await loadCatalog(t, 'catalog.ndjson');
  // A stay priced per month: S2 again, as M1.
  const s2 = readFileSync(path.join(FIXTURES, 'catalog.ndjson'), 'utf8')
    .split('\n')
    .find((l) => l.includes('"external_id":"S2"'))!;
  await loadCatalogText(
    t,
    s2.replace('"external_id":"S2"', '"external_id":"M1"').replace('"unit":"night"', '"unit":"month"'),
  );
  const { rows } = await t.sql.query<{ id: number; external_id: string }>('select id, external_id from listings');
  for (const r of rows) ids.set(r.external_id, Number(r.id));
});
afterAll(async () => t?.close());

const idOf = (ext: string) => ids.get(ext)!;
const page = (ext: string | number, q: Record<string, string | number> = {}, opts: Parameters<typeof http>[3] = {}) => {
  const qs = new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)])).toString();
  const id = typeof ext === 'number' ? ext : idOf(ext);
  return http(t.url, 'GET', `/v1/listings/${id}${qs ? `?${qs}` : ''}`, opts);
};

async function signIn(): Promise<{ token: string; accountId: string }> {
  const {
    rows: [account],
  } = await t.sql.query<{ id: string }>(
    `insert into accounts (email, first_name, last_name, email_confirmed_at) values ($1, 'Ann', 'Guest', now()) returning id`,
    [`guest-${ids.size}-${Math.random().toString(36).slice(2)}@example.com`],
  );
  const {
    rows: [session],
  } = await t.sql.query<{ id: string }>(
    `insert into sessions (account_id, refresh_token_hash, ip, expires_at, absolute_expires_at)
     values ($1, md5(random()::text), '127.0.0.1', now() + interval '1 day', now() + interval '30 days') returning id`,
    [account!.id],
  );
  const token = await signAccessToken(
    t.config,
    { accountId: account!.id, sessionId: session!.id },
    t.runtime.clock.now(),
  );
  return { token, accountId: account!.id };
}

describe('the page of a listing', () => {
  it('has the card fields, the full description, every photo, amenities and attributes named in the request language', async () => {
    const res = await page('S1', { lang: 'ru' });
    expect(res.status).toBe(200);
    const b = res.body;
    expect(b).toMatchObject({
      id: idOf('S1'),
      kind: 'stay',
      title: 'Вилла с видом на море',
      place: { slug: 'kata', name: 'Ката' },
      point: { lat: 7.8195, lon: 98.299 },
      price_minor: 450000,
      currency: 'THB',
      price_unit: 'night',
      rating_avg: 4.8,
      rating_count: 132,
      instant_book: true,
      lang: 'ru',
      translated: false,
      description: 'Три спальни над заливом и собственный бассейн.',
      description_lang: 'ru',
      languages: ['en', 'ru'],
    });
    expect(b.photos).toEqual([
      { thumb: 'https://img.example/S1/480.jpg', medium: 'https://img.example/S1/1600.jpg', large: null },
    ]);
    expect(b.photo).toEqual(b.photos[0]);
    // Amenity names fall back to English where the catalog has no Russian one.
    expect(b.amenities).toEqual([
      { code: 'kitchen', name: 'Kitchen' },
      { code: 'pool', name: 'Pool' },
      { code: 'wifi', name: 'Wi-Fi' },
    ]);
    const attr = Object.fromEntries(b.attributes.map((a: { code: string }) => [a.code, a]));
    expect(attr.property_type).toEqual({
      code: 'property_type',
      name: 'Тип жилья',
      number: null,
      flag: null,
      codes: ['villa'],
      code_names: ['Вилла'],
    });
    expect(attr.bedrooms).toEqual({
      code: 'bedrooms',
      name: 'Спальни',
      number: 3,
      flag: null,
      codes: [],
      code_names: [],
    });
    expect(attr.pets_allowed).toMatchObject({ number: null, flag: false, codes: [] });
    expect(attr.max_guests).toMatchObject({ number: 6 });
    expect(b.attributes.map((a: { code: string }) => a.code)).toEqual([
      'property_type',
      'room_type',
      'bedrooms',
      'beds',
      'bathrooms',
      'max_guests',
      'beach_distance_m',
      'pets_allowed',
      'smoking_allowed',
      'children_allowed',
      'parties_allowed',
      'long_stay',
    ]);
    expect(b).not.toHaveProperty('is_favorite');
  });

  it('gives the other kinds their own attributes: a list of codes is named code by code', async () => {
    const food = (await page('F1', { lang: 'en' })).body;
    expect(food.attributes).toEqual([
      { code: 'format', name: 'Format', number: null, flag: null, codes: ['cafe'], code_names: ['Cafe'] },
      {
        code: 'diets',
        name: 'Dietary options',
        number: null,
        flag: null,
        codes: ['vegan', 'vegetarian', 'gluten_free'],
        code_names: ['Vegan', 'Vegetarian', 'Gluten-free'],
      },
      { code: 'alcohol', name: 'Alcohol served', number: null, flag: false, codes: [], code_names: [] },
    ]);
    const transport = (await page('T1', { lang: 'en' })).body;
    expect(transport.attributes.map((a: { code: string }) => a.code)).toEqual([
      'vehicle_kind',
      'transmission',
      'seats',
    ]);
  });

  it('has the place path from the country down, with slugs and levels', async () => {
    const b = (await page('S1', { lang: 'en' })).body;
    expect(b.place_path.map((p: { slug: string; level: string; name: string }) => [p.slug, p.level, p.name])).toEqual([
      ['thailand', 'country', 'Thailand'],
      ['phuket', 'region', 'Phuket'],
      ['kata', 'district', 'Kata'],
    ]);
  });

  it('gives the point of an exact or approximate listing, and only an area for city_only', async () => {
    expect((await page('S2')).body.location).toEqual({
      mode: 'approximate',
      point: { lat: 7.8475, lon: 98.2965 },
      area: null,
    });
    const city = (await page('S4')).body;
    expect(city.point).toBeNull();
    expect(city.location.mode).toBe('city_only');
    expect(city.location.point).toBeNull();
    const [minLon, minLat, maxLon, maxLat] = city.location.area;
    // Sukhumvit's centre is inside, and the box is a box (about 2 km), not a point.
    expect(minLon).toBeLessThan(100.56);
    expect(maxLon).toBeGreaterThan(100.56);
    expect(minLat).toBeLessThan(13.7373);
    expect(maxLat).toBeGreaterThan(13.7373);
    expect(maxLon - minLon).toBeGreaterThanOrEqual(0.02);
  });

  it('gives the price in its own currency and converted into the one asked for, marked approximate', async () => {
    const usd = (await page('S3', { currency: 'THB' })).body;
    expect(usd.price).toEqual({ amount_minor: 5000, currency: 'USD', unit: 'night' });
    // 50.00 USD at 0.0281 USD per baht.
    expect(usd.converted).toEqual({ amount_minor: 177936, currency: 'THB', approximate: true });
    const thb = (await page('S1')).body;
    expect(thb.converted).toEqual({ amount_minor: 450000, currency: 'THB', approximate: true });
    const eur = (await page('S1', { currency: 'EUR' })).body;
    expect(eur.converted).toEqual({ amount_minor: 11790, currency: 'EUR', approximate: true });
    expect((await page('S1', { currency: 'JPY' })).body.converted).toBeNull();
  });

  it('lists the blocked ranges of the next 365 days from today in the place’s zone', async () => {
    const b = (await page('S1')).body;
    expect(b.calendar).toEqual({ from: '2026-11-27', to: '2027-11-27', timezone: 'Asia/Bangkok' });
    expect(b.blocked).toEqual([{ from: '2026-12-20', to: '2026-12-27' }]);
    expect((await page('S3')).body.blocked).toEqual([]);
  });
});

describe('availability and the total of a stay', () => {
  it('per night: free dates are priced nights × price, in the listing’s currency and converted', async () => {
    const b = (await page('S3', { date_from: '2026-12-01', date_to: '2026-12-04', guests: 2 })).body;
    expect(b.availability).toEqual({
      date_from: '2026-12-01',
      date_to: '2026-12-04',
      guests: 2,
      free: true,
      reason: null,
      capacity: 2,
      nights: 3,
      units: 3,
      total_minor: 15000,
      currency: 'USD',
      converted_total: { amount_minor: 533808, currency: 'THB', approximate: true },
    });
  });

  it('a stay over a blocked day is not free (reason blocked), still priced; touching the range is free', async () => {
    const clash = (await page('S1', { date_from: '2026-12-26', date_to: '2026-12-29' })).body.availability;
    expect(clash).toMatchObject({ free: false, reason: 'blocked', nights: 3, total_minor: 1350000 });
    const before = (await page('S1', { date_from: '2026-12-17', date_to: '2026-12-20' })).body.availability;
    expect(before).toMatchObject({ free: true, reason: null });
    const after = (await page('S1', { date_from: '2026-12-27', date_to: '2026-12-28' })).body.availability;
    expect(after).toMatchObject({ free: true, nights: 1, total_minor: 450000 });
  });

  it('more guests than the listing takes: not free, reason over_capacity, with the capacity', async () => {
    const over = (await page('S1', { date_from: '2026-12-01', date_to: '2026-12-02', guests: 7 })).body.availability;
    expect(over).toMatchObject({ free: false, reason: 'over_capacity', capacity: 6 });
    const fits = (await page('S1', { date_from: '2026-12-01', date_to: '2026-12-02', guests: 6 })).body.availability;
    expect(fits).toMatchObject({ free: true, capacity: 6 });
    // Kinds without a capacity take any number.
    const scooter = (await page('T1', { date_from: '2026-12-01', guests: 40 })).body.availability;
    expect(scooter).toMatchObject({ free: true, capacity: null });
  });

  it('totals per unit: person × guests, hour × started hours of the duration, day × days, trip and item once', async () => {
    const q = { date_from: '2026-12-01', date_to: '2026-12-03', guests: 3 };
    expect((await page('E1', q)).body.availability).toMatchObject({ units: 3, total_minor: 1050000, currency: 'THB' });
    // 90 minutes: two started hours.
    expect((await page('V1', q)).body.availability).toMatchObject({ units: 2, total_minor: 160000 });
    expect((await page('T1', q)).body.availability).toMatchObject({ nights: 2, units: 2, total_minor: 60000 });
    expect((await page('T3', q)).body.availability).toMatchObject({ units: 1, total_minor: 120000 });
    expect((await page('F1', q)).body.availability).toMatchObject({ units: 1, total_minor: 30000 });
    // Without date_to, the one day date_from; without guests, one guest.
    expect((await page('E1', { date_from: '2026-12-01' })).body.availability).toMatchObject({
      date_to: '2026-12-02',
      guests: 1,
      nights: 1,
      units: 1,
    });
  });

  it('per month: the nights’ share of a 30-night month, as the feed’s cards count it', async () => {
    const b = (await page('M1', { date_from: '2026-12-01', date_to: '2026-12-08' })).body.availability;
    expect(b).toMatchObject({ free: true, nights: 7, total_minor: Math.round((150000 * 7) / 30), currency: 'THB' });
    expect(b.units).toBeCloseTo(7 / 30);
  });

  it('no dates: no availability', async () => {
    expect((await page('S1')).body.availability).toBeNull();
  });
});

describe('refusals in the error envelope', () => {
  it('an unknown id, an unpublished listing and an id that is not a number', async () => {
    expectEnvelope(await page(999_999), 404, 'not_found');
    expectEnvelope(await page('D1'), 404, 'not_found');
    expectEnvelope(await http(t.url, 'GET', '/v1/listings/abc'), 400, 'validation_error');
    expectEnvelope(await http(t.url, 'GET', '/v1/listings/0'), 400, 'validation_error');
  });

  it('dates out of order, too long a range, outside the calendar, and guests or date_to without date_from', async () => {
    const cases: Array<[Record<string, string | number>, string]> = [
      [{ date_from: '2026-12-05', date_to: '2026-12-05' }, 'date_to'],
      [{ date_from: '2026-12-05', date_to: '2026-12-01' }, 'date_to'],
      [{ date_from: '2026-12-01', date_to: '2027-06-30' }, 'date_to'],
      [{ date_to: '2026-12-05' }, 'date_to'],
      [{ guests: 2 }, 'guests'],
      [{ date_from: '2026-13-01' }, 'date_from'],
      [{ date_from: '2026-12-01', guests: 0 }, 'guests'],
      [{ currency: 'usd' }, 'currency'],
    ];
    for (const [q, field] of cases) {
      const res = await page('S1', q);
      expectEnvelope(res, 400, 'validation_error');
      expect(res.body.error.details.field, JSON.stringify(q)).toBe(field);
    }
    const past = await page('S1', { date_from: '2026-11-26', date_to: '2026-11-28' });
    expectEnvelope(past, 400, 'validation_error');
    expect(past.body.error.details).toMatchObject({ field: 'date_from', reason: 'before_today' });
    const beyond = await page('S1', { date_from: '2027-11-20', date_to: '2027-11-28' });
    expectEnvelope(beyond, 400, 'validation_error');
    expect(beyond.body.error.details).toMatchObject({ field: 'date_to', reason: 'beyond_calendar' });
    // The last night of the calendar may be booked.
    expect((await page('S1', { date_from: '2027-11-26', date_to: '2027-11-27' })).status).toBe(200);
  });
});

describe('conditional answers', () => {
  it('an ETag; If-None-Match with it is 304 without a body; another language, another tag', async () => {
    const first = await page('S1', { lang: 'en' });
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^(W\/)?"[^"]+"$/);
    const again = await page('S1', { lang: 'en' }, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    const ru = await page('S1', { lang: 'ru' }, { headers: { 'if-none-match': etag! } });
    expect(ru.status).toBe(200);
    expect(ru.headers.get('etag')).not.toBe(etag);
    const stale = await page('S1', { lang: 'en' }, { headers: { 'if-none-match': '"stale"' } });
    expect(stale.status).toBe(200);
  });
});

describe('signed in', () => {
  it('is_favorite follows the guest’s favorites, and the ETag changes with it', async () => {
    const { token, accountId } = await signIn();
    const before = await page('S2', {}, { token });
    expect(before.body.is_favorite).toBe(false);
    expect(before.headers.get('cache-control')).toContain('no-store');
    await t.sql.query('insert into favorites (account_id, listing_id) values ($1, $2)', [accountId, idOf('S2')]);
    const after = await page('S2', {}, { token, headers: { 'if-none-match': before.headers.get('etag')! } });
    expect(after.status).toBe(200);
    expect(after.body.is_favorite).toBe(true);
    // Another guest's favorite is not this one's.
    const other = await signIn();
    expect((await page('S2', {}, { token: other.token })).body.is_favorite).toBe(false);
  });
});
