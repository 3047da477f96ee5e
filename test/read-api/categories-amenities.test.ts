import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readApi } from '@guest/read-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { expectEnvelope, http } from '../support/http.ts';
import { loadCatalog } from '../fixtures/events/load.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ apps: [readApi] });
  await loadCatalog(t, 'reference/catalog.ndjson');
});
afterAll(async () => t?.close());

const get = async (path: string, headers: Record<string, string> = {}) => {
  const res = await http(t.url, 'GET', path, { headers });
  expect(res.status, res.text).toBe(200);
  return res.body;
};

describe('GET /v1/categories', () => {
  it('lists the categories of one kind, named in the request language with English fallback', async () => {
    const items = await get('/v1/categories?kind=experience', { 'accept-language': 'ru' });
    expect(items.map((c: any) => [c.code, c.kind, c.name, c.lang])).toEqual([
      ['cooking', 'experience', 'Cooking', 'en'],
      ['diving', 'experience', 'Дайвинг', 'ru'],
    ]);
    expect(items[0]).not.toHaveProperty('listings_count');
  });

  it('with_counts counts published listings only (the feed boundary): the draft diving listing is left out', async () => {
    const items = await get('/v1/categories?kind=experience&with_counts=true');
    expect(items.map((c: any) => [c.code, c.listings_count])).toEqual([
      ['cooking', 1],
      ['diving', 2],
    ]);
    // The archived street-food listing does not count either.
    expect(
      (await get('/v1/categories?kind=food&with_counts=true')).map((c: any) => [c.code, c.listings_count]),
    ).toEqual([['street-food', 0]]);
    expect((await get('/v1/categories?kind=transport&with_counts=1'))[0].listings_count).toBe(1);
  });

  it('other filters do not affect the counts (they are not accepted as filters at all)', async () => {
    const plain = await get('/v1/categories?kind=experience&with_counts=true');
    expect(await get('/v1/categories?kind=experience&with_counts=true&q=kata&price_max=1')).toEqual(plain);
  });

  it('needs kind, one of experience, service, transport or food', async () => {
    for (const qs of ['', '?kind=stay', '?kind=event', '?kind=all']) {
      const e = expectEnvelope(await http(t.url, 'GET', `/v1/categories${qs}`), 400, 'validation_error');
      expect(e.details.field).toBe('kind');
    }
    const e = expectEnvelope(
      await http(t.url, 'GET', '/v1/categories?kind=food&with_counts=2'),
      400,
      'validation_error',
    );
    expect(e.details.field).toBe('with_counts');
  });
});

describe('GET /v1/amenities', () => {
  it('groups amenities (known groups in order, unknown ones last), named in the request language', async () => {
    const groups = await get('/v1/amenities', { 'accept-language': 'ru' });
    expect(groups.map((g: any) => [g.group, g.name])).toEqual([
      ['essentials', 'Основное'],
      ['facilities', 'Удобства'],
      ['internet', 'Интернет'],
      ['included', 'Включено'],
      ['outdoor', 'Outdoor'],
    ]);
    const facilities = groups.find((g: any) => g.group === 'facilities');
    expect(facilities.items).toEqual([
      { code: 'pool', name: 'Бассейн', kinds: ['stay'] },
      { code: 'gym', name: 'Тренажёрный зал', kinds: ['stay'] },
    ]);
    expect(groups.find((g: any) => g.group === 'internet').items).toEqual([
      { code: 'wifi', name: 'Wi-Fi', kinds: ['stay', 'experience', 'service'] },
    ]);
  });

  it('narrows to the amenities of one kind and drops empty groups', async () => {
    const exp = await get('/v1/amenities?kind=experience');
    expect(exp.map((g: any) => [g.group, g.items.map((i: any) => i.code)])).toEqual([
      ['internet', ['wifi']],
      ['included', ['towels']],
    ]);
    const service = await get('/v1/amenities?kind=service');
    expect(service.flatMap((g: any) => g.items.map((i: any) => i.code))).toEqual(['parking', 'wifi']);
  });

  it('refuses any other kind with 400 validation_error on kind', async () => {
    for (const kind of ['transport', 'food', 'all', 'x']) {
      const e = expectEnvelope(await http(t.url, 'GET', `/v1/amenities?kind=${kind}`), 400, 'validation_error');
      expect(e.details.field).toBe('kind');
    }
  });
});

describe('OpenAPI', () => {
  it('documents categories and amenities with their shapes', async () => {
    const res = await http(t.url, 'GET', '/v1/openapi.json');
    expect(res.status, res.text).toBe(200);
    expect(res.body.paths['/v1/categories'].get).toBeDefined();
    expect(res.body.paths['/v1/amenities'].get).toBeDefined();
    for (const id of ['CategoryResponse', 'AmenityGroupResponse', 'AmenityResponse']) {
      expect(res.body.components.schemas[id], id).toBeDefined();
    }
  });
});
