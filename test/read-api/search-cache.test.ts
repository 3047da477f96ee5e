import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aliasName } from '@guest/catalog';
import { readApi } from '@guest/read-api';
import { writeApi } from '@guest/write-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { http } from '../support/http.ts';
import { eventually } from '../support/eventually.ts';
import { register } from '../write-api/auth/support.ts';
import { generationKnown, loadCatalog, metric, metricsText, search } from './search/support.ts';

/**
 * The caches of the search routes, as clients see them: answers are shared between guests and
 * calls (whole anonymous answers, and engine answers behind them), yet a change the index makes
 * visible shows up (staleness bounded by the generation reading), identical calls under way are
 * answered by one engine call, and what belongs to one signed-in guest (`is_favorite`) never
 * reaches another.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    apps: [writeApi, readApi],
    // A long poll keeps the generation reading current however slow the machine is, so that no
    // call bypasses the cache here; the staleness bound is poll + 150 ms either way.
    config: {
      SEARCH_CACHE_TTL_MS: 60_000,
      SEARCH_CACHE_GENERATION_POLL_MS: 1000,
      CORS_ORIGINS: 'https://app.example.test',
    },
  });
  await loadCatalog(t, 'catalog.ndjson');
  await generationKnown(t.url);
});
afterAll(async () => t?.close());

const outcomes = async () => {
  const text = await metricsText(t.url);
  const of = (o: string) => metric(text, 'search_cache_requests_total', `{outcome="${o}"}`) ?? 0;
  const answer = (o: string) => metric(text, 'search_answer_cache_requests_total', `{outcome="${o}"}`) ?? 0;
  return {
    hit: of('hit'),
    miss: of('miss'),
    coalesced: of('coalesced'),
    bypass: of('bypass'),
    answerHit: answer('hit'),
    answerMiss: answer('miss'),
    answerBypass: answer('bypass'),
  };
};

describe('search result cache', () => {
  it('serves a repeated view from the cache, and its answer changes once an indexed change is visible', async () => {
    const first = await search(t, 'count', { kind: 'stay' });
    expect(first.status).toBe(200);
    const before = await outcomes();
    const again = await search(t, 'count', { kind: 'stay' });
    expect(again.body).toEqual(first.body);
    const after = await outcomes();
    // The whole answer was sent as kept: the engine-answer cache was not even asked.
    expect(after.answerHit - before.answerHit).toBe(1);
    expect(after.hit - before.hit).toBe(0);
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
      // The others joined the engine call under way, or came after its answer was kept.
      expect(after.coalesced - before.coalesced + (after.hit - before.hit) + (after.answerHit - before.answerHit)).toBe(
        19,
      );
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
    // All three were the one shared first page: the signed-in ones from the engine-answer cache
    // (their answer is personal, so it is never kept whole), the anonymous one as kept ...
    expect(after.hit - before.hit).toBe(2);
    expect(after.answerBypass - before.answerBypass).toBe(2);
    expect(after.answerHit - before.answerHit).toBe(1);
    // ... with each caller's own overlay.
    const favs = (items: Array<{ id: number; is_favorite?: boolean }>) =>
      items.filter((i) => i.is_favorite).map((i) => i.id);
    expect(favs(annFeed.body.items)).toEqual([s1.id]);
    expect(favs(bobFeed.body.items)).toEqual([]);
    expect(bobFeed.body.items.every((i: { is_favorite?: boolean }) => i.is_favorite === false)).toBe(true);
    expect(anonFeed.body.items.some((i: object) => 'is_favorite' in i)).toBe(false);
    expect(annFeed.headers.get('cache-control')).toContain('no-store');
  });

  it('sends a kept answer byte for byte, with this request’s own id and headers', async () => {
    const params = { kind: 'stay', zoom: 11, bbox: '98.2,7.7,98.5,8.1' };
    const first = await search(t, 'map', params);
    const before = await outcomes();
    const origin = 'https://app.example.test';
    const again = await http(t.url, 'GET', '/v1/search/map?bbox=98.2,7.7,98.5,8.1&zoom=11&kind=stay', {
      headers: { origin },
    });
    const after = await outcomes();
    // Parameters in another order are the same view.
    expect(after.answerHit - before.answerHit).toBe(1);
    expect(again.status).toBe(200);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(again.headers.get('x-request-id')).toMatch(/\S/);
    expect(again.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
    expect(again.headers.get('access-control-allow-origin')).toBe(origin);
    expect(again.headers.get('ratelimit-policy') ?? again.headers.get('ratelimit')).toBeTruthy();
  });

  it('keeps one answer per language, and none for later pages, bad tokens or errors', async () => {
    const en = await search(t, 'suggest', { q: 'Phu' }, { headers: { 'accept-language': 'en' } });
    const ru = await search(t, 'suggest', { q: 'Phu' }, { headers: { 'accept-language': 'ru' } });
    expect(en.status).toBe(200);
    expect(ru.status).toBe(200);
    expect(ru.headers.get('content-language') ?? 'ru').toBe('ru');
    const before = await outcomes();
    expect((await search(t, 'suggest', { q: 'Phu' }, { headers: { 'accept-language': 'ru' } })).text).toBe(ru.text);
    expect((await search(t, 'suggest', { q: 'Phu' }, { headers: { 'accept-language': 'en' } })).text).toBe(en.text);
    const mid = await outcomes();
    expect(mid.answerHit - before.answerHit).toBe(2);

    // A token that is not valid is refused, even where the anonymous answer is kept.
    await search(t, 'listings', { kind: 'stay' });
    const bad = await search(t, 'listings', { kind: 'stay' }, { token: 'not-a-token' });
    expect(bad.status).toBe(401);
    expect(bad.body.error.code).toBeTruthy();

    // A later page is answered for its own cursor.
    const page1 = await search(t, 'listings', { limit: 2 });
    const cursor = page1.body.next_cursor as string;
    expect(cursor).toBeTruthy();
    const page2 = await search(t, 'listings', { limit: 2, cursor });
    const again2 = await search(t, 'listings', { limit: 2, cursor });
    expect(again2.body.items).toEqual(page2.body.items);
    const after = await outcomes();
    expect(after.answerBypass - mid.answerBypass).toBe(3);
    expect(after.answerHit - mid.answerHit).toBe(0);

    // An error is never kept: the same bad request is refused again, in its own envelope.
    const wrong1 = await search(t, 'count', { kind: 'spaceship' });
    const wrong2 = await search(t, 'count', { kind: 'spaceship' });
    expect(wrong1.status).toBe(400);
    expect(wrong2.status).toBe(400);
    expect(wrong2.body.error.request_id).not.toBe(wrong1.body.error.request_id);
  });

  it('reports the answer cache in /metrics', async () => {
    await search(t, 'price-range', { kind: 'stay' });
    await search(t, 'price-range', { kind: 'stay' });
    const text = await metricsText(t.url);
    expect(metric(text, 'search_answer_cache_hit_ratio')).toBeGreaterThan(0);
    expect(metric(text, 'search_answer_cache_bytes')).toBeGreaterThan(0);
    expect(metric(text, 'search_answer_cache_served_age_seconds_count')).toBeGreaterThan(0);
  });
});
