import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readApi } from '@guest/read-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { expectEnvelope } from '../support/http.ts';
import { loadCatalog, search } from './search/support.ts';

/**
 * GET /v1/search/filter-values: the codes a filter screen offers, each with a count that is what
 * the count route answers when the filter is applied (the same boundary: published listings).
 * Fixture: test/fixtures/search/catalog.ndjson (15 published listings, one draft).
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ apps: [readApi] });
  await loadCatalog(t, 'catalog.ndjson');
});
afterAll(async () => t?.close());

const KIND_OF: Record<string, string> = {
  property_type: 'stay',
  room_type: 'stay',
  vehicle_kind: 'transport',
  transmission: 'transport',
  food_format: 'food',
  diets: 'food',
};

describe('filter values', () => {
  it('lists each code with the number of listings the filter finds', async () => {
    const res = await search(t, 'filter-values');
    expect(res.status, res.text).toBe(200);
    for (const [name, kind] of Object.entries(KIND_OF)) {
      const values: Array<{ code: string; count: number }> = res.body[name];
      expect(values.length, name).toBeGreaterThan(0);
      for (const v of values) {
        const count = await search(t, 'count', { kind, [name]: v.code });
        expect(count.body.count, `${name}=${v.code}`).toBe(v.count);
      }
    }
    const units: Array<{ code: string; count: number }> = res.body.price_unit;
    const total = (await search(t, 'count', {})).body.count;
    expect(units.reduce((n, u) => n + u.count, 0)).toBe(total);
  });

  it('narrows to one kind; other kinds have no values there', async () => {
    const food = await search(t, 'filter-values', { kind: 'food' });
    expect(food.status).toBe(200);
    expect(food.body.property_type).toEqual([]);
    expect(food.body.food_format.length).toBeGreaterThan(0);
    const all = await search(t, 'filter-values', { kind: 'all' });
    expect(all.body).toEqual((await search(t, 'filter-values')).body);
  });

  it('refuses an unknown kind with the envelope', async () => {
    const res = await search(t, 'filter-values', { kind: 'boats' });
    expectEnvelope(res, 400, 'validation_error');
  });
});
