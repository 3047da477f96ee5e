import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aliasName } from '@guest/catalog';
import { readApi } from '@guest/read-api';
import { writeApi } from '@guest/write-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { http } from '../support/http.ts';
import { eventually } from '../support/eventually.ts';
import { register } from '../write-api/auth/support.ts';
import { loadCatalog, search } from './search/support.ts';

/**
 * The result cache of the search routes, as clients see it: answers are shared between guests
 * and calls, yet a change the index makes visible shows up (staleness bounded by the generation
 * reading), identical calls under way are answered by one engine call, and what belongs to one
 * signed-in guest (`is_favorite`) never reaches another.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    apps: [writeApi, readApi],
    // A long poll keeps the generation reading current however slow the machine is, so that no
    // call bypasses the cache here; the staleness bound is poll + 150 ms either way.
    config: { SEARCH_CACHE_TTL_MS: 60_000, SEARCH_CACHE_GENERATION_POLL_MS: 1000 },
  });
  await loadCatalog(t, 'catalog.ndjson');
  await eventually('the cache knows the index generation', async () => {
    const age = metric(await metricsText(), 'search_cache_generation_age_seconds');
    return age !== null && age >= 0;
  });
});
afterAll(async () => t?.close());

async function metricsText(): Promise<string> {
  const res = await http(t.url, 'GET', '/metrics');
  expect(res.status).toBe(200);
  return res.text;
}

function metric(text: string, name: string, labels = ''): number | null {
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `));
  return line ? Number(line.split(' ')[1]) : null;
}

const outcomes = async () => {
  const text = await metricsText();
  const of = (o: string) => metric(text, 'search_cache_requests_total', `{outcome="${o}"}`) ?? 0;
  return { hit: of('hit'), miss: of('miss'), coalesced: of('coalesced'), bypass: of('bypass') };
};

describe('search result cache', () => {
  it('serves a repeated view from the cache, and its answer changes once an indexed change is visible', async () => {
    const first = await search(t, 'count', { kind: 'stay' });
    expect(first.status).toBe(200);
    const before = await outcomes();
    const again = await search(t, 'count', { kind: 'stay' });
    expect(again.body).toEqual(first.body);
    const after = await outcomes();
    expect(after.hit - before.hit).toBe(1);
    expect(after.miss - before.miss).toBe(0);

    // One stay leaves the index (as the indexer deletes it), and the index refreshes.
    const listings = aliasName(t.config.INDEX_PREFIX, 'listings');
    const feed = await search(t, 'listings', { kind: 'stay', limit: 1 });
    const gone = feed.body.items[0].id as number;
    const [concrete] = await t.runtime.search.getAlias(listings);
    await t.runtime.search.bulk([{ delete: { _index: concrete, _id: String(gone) } }], { refresh: true });

    const count = await eventually(
      'the cached count follows the change',
      async () => (await search(t, 'count', { kind: 'stay' })).body.count as number,
      { until: (n) => n === first.body.count - 1 },
    );
    expect(count).toBe(first.body.count - 1);
    // And the feed's first page (also cached) no longer shows it.
    const ids = (await search(t, 'listings', { kind: 'stay', limit: 50 })).body.items.map((i: { id: number }) => i.id);
    expect(ids).not.toContain(gone);
  });

  it('answers N identical concurrent requests with one engine call', async () => {
    let counts = 0;
    const stop = t.runtime.observeEngineCalls((operation) => {
      if (operation === 'count') counts++;
    });
    try {
      // A view nobody asked for yet.
      const params = { kind: 'food', price_max: 987_654 };
      const before = await outcomes();
      const answers = await Promise.all(Array.from({ length: 20 }, () => search(t, 'count', params)));
      const after = await outcomes();
      for (const a of answers) {
        expect(a.status).toBe(200);
        expect(a.body).toEqual(answers[0]!.body);
      }
      expect(counts).toBe(1);
      expect(after.miss - before.miss).toBe(1);
      expect(after.coalesced - before.coalesced + (after.hit - before.hit)).toBe(19);
    } finally {
      stop();
    }
  });

  it("never gives one guest's is_favorite to another guest or to an anonymous caller", async () => {
    const ann = await register(t);
    const bob = await register(t);
    const params = { lang: 'en', limit: 100, sort: 'price_asc' };
    const anon = await search(t, 'listings', params);
    const s1 = anon.body.items[0];
    expect(s1).toBeDefined();
    expect((await http(t.url, 'PUT', `/v1/me/favorites/${s1.id}`, { token: ann.tokens.access_token })).status).toBe(
      200,
    );

    const before = await outcomes();
    const annFeed = await search(t, 'listings', params, { token: ann.tokens.access_token });
    const bobFeed = await search(t, 'listings', params, { token: bob.tokens.access_token });
    const anonFeed = await search(t, 'listings', params);
    const after = await outcomes();
    // All three were the one shared first page (from the cache) ...
    expect(after.hit - before.hit).toBe(3);
    // ... with each caller's own overlay.
    const favs = (items: Array<{ id: number; is_favorite?: boolean }>) =>
      items.filter((i) => i.is_favorite).map((i) => i.id);
    expect(favs(annFeed.body.items)).toEqual([s1.id]);
    expect(favs(bobFeed.body.items)).toEqual([]);
    expect(bobFeed.body.items.every((i: { is_favorite?: boolean }) => i.is_favorite === false)).toBe(true);
    expect(anonFeed.body.items.some((i: object) => 'is_favorite' in i)).toBe(false);
    expect(annFeed.headers.get('cache-control')).toContain('no-store');
  });
});
