import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '@guest/runtime';
import { readApi } from '@guest/read-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { expectEnvelope, http } from '../support/http.ts';
import { loadCatalog } from '../fixtures/events/load.ts';

// Published listings: Kata 2 (stay), Kata Noi 1 (experience), Patong 1 (experience), Phuket itself
// 1 (service), "popular" (an area in Patong) 1 (transport). A draft and an archived listing in
// Patong are outside the feed and must never be counted.
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ apps: [readApi], clock: fixedClock('2026-12-01T10:00:00Z') });
  await loadCatalog(t, 'reference/catalog.ndjson');
});
afterAll(async () => t?.close());

const get = async (path: string, headers: Record<string, string> = {}) => {
  const res = await http(t.url, 'GET', path, { headers });
  expect(res.status, res.text).toBe(200);
  return res.body;
};
type Place = { id: number; slug: string; [k: string]: unknown };
const bySlug = (items: Place[]) => Object.fromEntries(items.map((p) => [p.slug, p]));

describe('GET /v1/places', () => {
  it('lists every place by level, with listings_count of the place itself and no totals by default', async () => {
    const items: Place[] = await get('/v1/places');
    expect(items.map((p) => p.slug)).toEqual([
      'thailand',
      'chiang-mai',
      'phuket',
      'kata',
      'patong',
      'kata-noi',
      'popular',
    ]);
    const p = bySlug(items);
    expect(p.kata).toMatchObject({
      level: 'district',
      name: 'Kata',
      listings_count: 2,
      listings_total: null,
      name_full: 'Kata, Phuket, Thailand',
      timezone: 'Asia/Bangkok',
      currency: 'THB',
      center: { lat: 7.8206, lon: 98.2986 },
    });
    expect(p.kata!.parent_id).toBe(p.phuket!.id);
    expect(p.thailand).toMatchObject({ parent_id: null, listings_count: 0, center: null });
    expect(p.patong!.listings_count).toBe(1); // the draft and the archived listing are not counted
    expect(p.phuket!.listings_count).toBe(1);
  });

  it('with_totals counts listings of nested places too', async () => {
    const p = bySlug(await get('/v1/places?with_totals=true'));
    expect(Object.fromEntries(Object.entries(p).map(([k, v]) => [k, v.listings_total]))).toEqual({
      thailand: 6,
      phuket: 6,
      'chiang-mai': 0,
      kata: 3,
      'kata-noi': 1,
      patong: 2,
      popular: 1,
    });
  });

  it('narrows by parent_id and by level', async () => {
    const { phuket } = bySlug(await get('/v1/places'));
    const children: Place[] = await get(`/v1/places?parent_id=${phuket!.id}&with_totals=1`);
    expect(children.map((c) => [c.slug, c.listings_count, c.listings_total])).toEqual([
      ['kata', 2, 3],
      ['patong', 1, 2],
    ]);
    expect((await get('/v1/places?level=region')).map((p: Place) => p.slug)).toEqual(['chiang-mai', 'phuket']);
    expect(await get('/v1/places?parent_id=999999')).toEqual([]);
  });

  it('names places in the request language with English fallback', async () => {
    const p = bySlug(await get('/v1/places', { 'accept-language': 'ru' }));
    expect(p.kata).toMatchObject({ name: 'Ката', name_full: 'Ката, Пхукет, Таиланд' });
    expect(p['kata-noi']).toMatchObject({ name: 'Kata Noi' });
  });

  it.each([
    ['?level=city', 'level'],
    ['?parent_id=abc', 'parent_id'],
    // Beyond the engine's integer field: refused here, not by the engine as a 500.
    ['?parent_id=2147483648', 'parent_id'],
    ['?parent_id=2009731832715910&lang=1%2C2%2C3', 'parent_id'],
    ['?with_totals=maybe', 'with_totals'],
  ])('400 validation_error for %s', async (qs, field) => {
    const e = expectEnvelope(await http(t.url, 'GET', `/v1/places${qs}`), 400, 'validation_error');
    expect(e.details.field).toBe(field);
  });
});

describe('GET /v1/places/{slug}', () => {
  it('returns the card: the 11 place fields, its path from the top, its children and counts per kind', async () => {
    const card = await get('/v1/places/kata?with_totals=true', { 'accept-language': 'ru' });
    expect(Object.keys(card).sort()).toEqual(
      [
        'id',
        'parent_id',
        'level',
        'slug',
        'name',
        'listings_count',
        'listings_total',
        'name_full',
        'timezone',
        'currency',
        'center',
        'path',
        'children',
        'counts',
      ].sort(),
    );
    expect(card).toMatchObject({ slug: 'kata', name: 'Ката', listings_count: 2, listings_total: 3 });
    expect(card.path.map((p: Place) => [p.slug, p.name, p.listings_total])).toEqual([
      ['thailand', 'Таиланд', 6],
      ['phuket', 'Пхукет', 6],
    ]);
    expect(card.children.map((p: Place) => [p.slug, p.listings_count])).toEqual([['kata-noi', 1]]);
    expect(card.counts).toEqual({ stay: 2, experience: 1, service: 0, transport: 0, food: 0, events: 0 });
  });

  it('a country has an empty path; a leaf has no children', async () => {
    const th = await get('/v1/places/thailand');
    expect(th.path).toEqual([]);
    expect(th.listings_total).toBeNull();
    expect(th.counts).toMatchObject({ stay: 2, experience: 2, service: 1, transport: 1, food: 0 });
    expect((await get('/v1/places/kata-noi')).children).toEqual([]);
  });

  it('answers 404 not_found for an unknown slug', async () => {
    expectEnvelope(await http(t.url, 'GET', '/v1/places/atlantis'), 404, 'not_found');
  });
});

describe('GET /v1/places/popular', () => {
  it('lists popular places, busiest first, and is never read as a slug though a place is called "popular"', async () => {
    const items: Place[] = await get('/v1/places/popular');
    expect(Array.isArray(items)).toBe(true);
    expect(items.map((p) => p.slug)).toEqual(['phuket', 'kata', 'patong']);
    expect(items[0]!.listings_total).toBeNull();
    const withTotals: Place[] = await get('/v1/places/popular?with_totals=true&limit=2');
    expect(withTotals.map((p) => [p.slug, p.listings_total])).toEqual([
      ['phuket', 6],
      ['kata', 3],
    ]);
  });
});

describe('OpenAPI', () => {
  it('documents the place routes with PlaceResponse and PlaceCardResponse', async () => {
    const res = await http(t.url, 'GET', '/v1/openapi.json');
    expect(res.status, res.text).toBe(200);
    for (const p of ['/v1/places', '/v1/places/popular', '/v1/places/{slug}'])
      expect(res.body.paths[p]?.get, p).toBeDefined();
    expect(res.body.components.schemas.PlaceResponse).toBeDefined();
    expect(res.body.components.schemas.PlaceCardResponse).toBeDefined();
  });
});
