import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readApi } from '@guest/read-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { expectEnvelope, http } from '../support/http.ts';

/**
 * One grammar for the read API's query parameters (apps/read-api/src/query-grammar.ts): the same
 * bad value gets the same 400 on every route that takes it, the listings search and the events
 * alike: same field, same message, same details. Where the routes name a parameter differently
 * (a date is `date_from` in the search, `day` in the events), the value is refused in the same words.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ apps: [readApi] });
});
afterAll(async () => t?.close());

/** Every route with the shared geographic and text parameters, with what it needs besides. */
const ROUTES = [
  '/v1/search/listings?',
  '/v1/search/count?',
  '/v1/search/map?zoom=5&',
  '/v1/events/calendar?',
  '/v1/events/upcoming?',
  '/v1/events/feed?',
  '/v1/events/map?zoom=5&',
];

async function refusal(pathAndQuery: string) {
  const res = await http(t.url, 'GET', pathAndQuery);
  const e = expectEnvelope(res, 400, 'validation_error');
  return { message: e.message, details: e.details };
}

/** The refusals of `query` on every route: they must be one and the same. */
async function sameEverywhere(query: string, routes = ROUTES) {
  const answers = await Promise.all(routes.map((r) => refusal(r + query)));
  for (const [i, a] of answers.entries()) expect(a, `${routes[i]}${query}`).toEqual(answers[0]);
  return answers[0]!;
}

describe('the same bad value gets the same 400 on every read route', () => {
  const cases: Array<[string, string, string]> = [
    ['a box of three numbers', 'bbox=98,7,99', 'bbox'],
    ['a box upside down', 'bbox=98,9,99,8', 'bbox'],
    ['a box beyond the poles', 'bbox=98,7,99,95', 'bbox'],
    ['a point beyond the poles', 'near=95,98', 'near'],
    ['a point of one number', 'near=7.8', 'near'],
    ['a radius of zero', 'near=7.8,98.3&radius_m=0', 'radius_m'],
    ['a radius beyond half the Earth', 'near=7.8,98.3&radius_m=20000001', 'radius_m'],
    ['a radius without a point', 'radius_m=500', 'radius_m'],
    ['a text of 201 characters', `q=${'a'.repeat(201)}`, 'q'],
  ];
  for (const [name, query, field] of cases) {
    it(name, async () => {
      expect((await sameEverywhere(query)).details.field).toBe(field);
    });
  }

  it('a radius as far as half the Earth is accepted everywhere', async () => {
    for (const route of ROUTES) {
      const res = await http(t.url, 'GET', `${route}near=7.8,98.3&radius_m=20000000`);
      expect(res.status, route).not.toBe(400);
    }
  });

  it('a currency that is not a code, on every route that takes one', async () => {
    const e = await sameEverywhere('currency=baht', [
      '/v1/search/listings?',
      '/v1/search/count?',
      '/v1/search/map?zoom=5&',
      '/v1/search/price-range?',
    ]);
    expect(e.details.field).toBe('currency');
  });

  it('a date that is not in the calendar, and a list item that is not a code: refused in the same words', async () => {
    const dates = await Promise.all([
      refusal('/v1/search/listings?date_from=2026-02-30'),
      refusal('/v1/events/upcoming?day=2026-02-30'),
      refusal('/v1/events/calendar?first=2026-02-30'),
    ]);
    expect(new Set(dates.map((d) => d.details.issues[0].message)).size).toBe(1);
    const lists = await Promise.all([
      refusal('/v1/search/listings?amenities=wifi,Pool!'),
      refusal('/v1/events/upcoming?category=music,Pool!'),
    ]);
    expect(lists.map((l) => l.details.issues[0].message)).toEqual([
      '"Pool!": must be a lowercase code (a-z, 0-9, _ and -)',
      '"Pool!": must be a lowercase code (a-z, 0-9, _ and -)',
    ]);
  });
});

describe('a number in a list is written in decimal digits, as the document types it', () => {
  // The fuzzer, which reads the document and not this code, sent `category_id= 12 ` and got 200.
  it('padded, signed, exponent, hex and blank items are refused on every route of the list; plain digits pass', async () => {
    const routes = ['/v1/search/listings?', '/v1/search/count?', '/v1/search/map?zoom=5&'];
    for (const bad of ['%2012%20', '+5', '1e1', '0x10', '3,%204']) {
      const e = await sameEverywhere(`category_id=${bad}`, routes);
      expect(e.details.field).toBe('category_id');
      expect(e.details.issues[0].message).toMatch(/": must be a number written in decimal digits$/);
    }
    for (const route of routes) {
      // This app has no catalog or index: what matters is that the value passes the grammar.
      const ok = await http(t.url, 'GET', `${route}category_id=3,4`);
      expect(ok.status, `${route} ${ok.text}`).not.toBe(400);
    }
  });
});

describe('before the indexer has built any index', () => {
  // This app has no catalog and no index: the engine answers 404 index_not_found_exception.
  it('every read route answers a fast 503 unavailable with Retry-After, never a 500', async () => {
    const routes = [
      '/v1/search/listings?q=Kata',
      '/v1/search/count',
      '/v1/search/map?zoom=10&bbox=98,7,99,8',
      '/v1/search/suggest?q=ka',
      '/v1/search/price-range?kind=stay',
      '/v1/events/upcoming',
      '/v1/events/calendar',
      '/v1/places',
    ];
    for (const route of routes) {
      const res = await http(t.url, 'GET', route);
      expect(res.status, `${route} ${res.text}`).toBe(503);
      expect(res.body.error.code, route).toBe('unavailable');
      expect(Number(res.headers.get('retry-after')), route).toBeGreaterThan(0);
    }
  });
});
