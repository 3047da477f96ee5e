import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '@guest/runtime';
import { readApi } from '@guest/read-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { expectEnvelope, http } from '../support/http.ts';
import { loadCatalog } from '../fixtures/events/load.ts';

// Tuesday 2026-12-01, 17:00 in Bangkok (see events-calendar.test.ts for the catalog's days).
const NOW = '2026-12-01T10:00:00Z';
const clock = fixedClock(NOW);
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ apps: [readApi], clock });
  await loadCatalog(t, 'events/catalog.ndjson');
});
afterAll(async () => t?.close());

const get = async (path: string, headers: Record<string, string> = {}) => {
  const res = await http(t.url, 'GET', path, { headers });
  expect(res.status, res.text).toBe(200);
  return res.body;
};
type Day = { date: string; events: Array<{ slug: string; start_time: string }> };
const flat = (days: Day[]) => days.flatMap((d) => d.events.map((e) => `${d.date} ${e.start_time} ${e.slug}`));
type FeedPage = { items: Day[]; next_cursor: string | null; has_more: boolean };
const feed = async (qs: string) => (await get(`/v1/events/feed${qs}`)) as FeedPage;
/** The pages of a feed from `cursor` on, following `next_cursor`. */
const feedFrom = async (qs: string, cursor: string | null) => {
  const pages: FeedPage[] = [];
  while (cursor && pages.length < 20) {
    const page = await feed(`${qs}&cursor=${encodeURIComponent(cursor)}`);
    expect(page.has_more).toBe(page.next_cursor !== null);
    pages.push(page);
    cursor = page.next_cursor;
  }
  return pages;
};

describe('GET /v1/events/feed (by days)', () => {
  it('lists every matching occurrence on its day, grouped per day, in upcoming order', async () => {
    const body = await get('/v1/events/feed?days=4');
    expect(body.items.map((d: Day) => d.date)).toEqual(['2026-12-01', '2026-12-02', '2026-12-03', '2026-12-04']);
    expect(flat(body.items)).toEqual([
      '2026-12-01 20:00 jazz-night',
      '2026-12-02 00:30 midnight-cinema',
      '2026-12-02 06:30 sunrise-yoga',
      '2026-12-02 13:00 thai-cooking-class',
      '2026-12-03 22:00 full-moon-party',
      '2026-12-04 06:30 sunrise-yoga',
      '2026-12-04 10:00 puppet-show',
      '2026-12-04 19:00 puppet-show',
    ]);
    expect(body.has_more).toBe(false);
  });

  it('pages by cursor; a day cut by the page continues on the next page', async () => {
    const all = flat((await get('/v1/events/feed?days=4')).items);
    const seen: string[] = [];
    let cursor: string | null = null;
    let firstPage: Day[] | null = null;
    let pages = 0;
    do {
      const body: { items: Day[]; next_cursor: string | null } = await get(
        `/v1/events/feed?days=4&limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      firstPage ??= body.items;
      seen.push(...flat(body.items));
      cursor = body.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(all);
    expect(firstPage!.map((d) => d.date)).toEqual(['2026-12-01', '2026-12-02']);
  });

  it('applies the shared filters', async () => {
    expect(flat((await get('/v1/events/feed?days=4&category=theatre&time=evening')).items)).toEqual([
      '2026-12-04 19:00 puppet-show',
    ]);
  });

  describe('a feed is read as of the instant of its first page', () => {
    afterEach(() => clock.set(NOW));

    it('a feed started at 23:59 in Bangkok continues at 00:01 (today changed) without a gap, an extra day or a 400', async () => {
      clock.set('2026-12-03T16:59:00Z'); // 23:59 on Dec 3 in Bangkok
      const whole = flat((await feed('?days=2')).items);
      expect(whole).toEqual([
        '2026-12-03 22:00 full-moon-party',
        '2026-12-04 06:30 sunrise-yoga',
        '2026-12-04 10:00 puppet-show',
        '2026-12-04 19:00 puppet-show',
      ]);
      const first = await feed('?days=2&limit=1');
      expect(flat(first.items)).toEqual(['2026-12-03 22:00 full-moon-party']);
      clock.set('2026-12-03T17:01:00Z'); // 00:01 on Dec 4
      const rest = await feedFrom('?days=2&limit=1', first.next_cursor);
      // The window stays Dec 3-4 of the first page: Dec 5's jazz does not join the feed.
      expect([...flat(first.items), ...rest.flatMap((p) => flat(p.items))]).toEqual(whole);
      expect(rest.at(-1)!.has_more).toBe(false);
      // The cursor still continues its own filters and window only.
      const c = encodeURIComponent(first.next_cursor!);
      for (const qs of [`?days=3&limit=1&cursor=${c}`, `?days=2&limit=1&time=morning&cursor=${c}`]) {
        const e = expectEnvelope(await http(t.url, 'GET', `/v1/events/feed${qs}`), 400, 'validation_error');
        expect(e.details, qs).toMatchObject({ field: 'cursor', reason: 'foreign' });
      }
      // A new feed starts at the clock: today is Dec 4; the party (a Dec 3 occurrence, on until
      // 04:00) is listed under today until it ends, its card keeping its own day.
      const atMidnight = (await feed('?days=2')).items;
      expect(atMidnight[0]!.events[0]).toMatchObject({ slug: 'full-moon-party', day: '2026-12-03' });
      expect(flat(atMidnight)).toEqual([
        '2026-12-04 22:00 full-moon-party',
        '2026-12-04 06:30 sunrise-yoga',
        '2026-12-04 10:00 puppet-show',
        '2026-12-04 19:00 puppet-show',
        '2026-12-05 20:00 jazz-night',
      ]);
      clock.set('2026-12-03T21:01:00Z'); // 04:01 on Dec 4: the party is over
      expect(flat((await feed('?days=2')).items)).toEqual([
        '2026-12-04 06:30 sunrise-yoga',
        '2026-12-04 10:00 puppet-show',
        '2026-12-04 19:00 puppet-show',
        '2026-12-05 20:00 jazz-night',
      ]);
    });

    it('an occurrence that ends between two pages is still on the later page (no skip)', async () => {
      clock.set('2026-12-03T23:00:00Z'); // 06:00 on Dec 4 in Bangkok
      const whole = flat((await feed('?days=1')).items);
      expect(whole).toEqual([
        '2026-12-04 06:30 sunrise-yoga',
        '2026-12-04 10:00 puppet-show',
        '2026-12-04 19:00 puppet-show',
      ]);
      const first = await feed('?days=1&limit=1');
      // 12:00 on Dec 4: the 10:00 puppet show (until 11:00) has ended.
      clock.set('2026-12-04T05:00:00Z');
      const rest = await feedFrom('?days=1&limit=1', first.next_cursor);
      expect([...flat(first.items), ...rest.flatMap((p) => flat(p.items))]).toEqual(whole);
      // A new feed starts at the clock again.
      expect(flat((await feed('?days=1')).items)).toEqual(['2026-12-04 19:00 puppet-show']);
    });

    it('refuses (400 malformed on cursor) a signed cursor without the instant of its feed, as issued before it was pinned', async () => {
      const first = await feed('?days=4&limit=3');
      const pinned = t.app.cursors.decode<Record<string, unknown>>('events-feed', first.next_cursor!);
      const { n: _n, t: _t, ...old } = pinned;
      for (const payload of [
        old, // the format issued before the instant was pinned: { h, after }
        { ...pinned, after: undefined },
        { ...pinned, after: (pinned.after as unknown[]).slice(0, 2) },
        { ...pinned, n: String(pinned.n) },
        null,
      ]) {
        const cursor = encodeURIComponent(t.app.cursors.encode('events-feed', payload));
        const e = expectEnvelope(
          await http(t.url, 'GET', `/v1/events/feed?days=4&limit=3&cursor=${cursor}`),
          400,
          'validation_error',
        );
        expect(e.details, JSON.stringify(payload)).toMatchObject({ field: 'cursor', reason: 'malformed' });
      }
    });
  });
});

describe('GET /v1/events/map', () => {
  it('clusters up to zoom 12, counting distinct events', async () => {
    const body = await get('/v1/events/map?zoom=10');
    expect(body.points).toEqual([]);
    expect(body.total).toBe(7);
    const sum = body.clusters.reduce((s: number, c: { count: number }) => s + c.count, 0);
    expect(sum).toBe(7);
    for (const c of body.clusters) {
      expect(c.bbox[0]).toBeLessThanOrEqual(c.lon);
      expect(c.bbox[2]).toBeGreaterThanOrEqual(c.lon);
    }
  });

  it('gives one point per event beyond zoom 12, with the same filters', async () => {
    const body = await get('/v1/events/map?zoom=14&bbox=98.28,7.88,98.32,7.91');
    expect(body.clusters).toEqual([]);
    expect(body.points.map((p: { slug: string }) => p.slug).sort()).toEqual([
      'full-moon-party',
      'jazz-night',
      'midnight-cinema',
    ]);
    expect(body.truncated).toBe(false);
    expect(body.total).toBe(3);
  });

  it('shows on each point what the card of its occurrence shows, in the asked language', async () => {
    for (const lang of ['en', 'ru', 'th', 'zh-Hans']) {
      const { points } = await get(`/v1/events/map?zoom=14&bbox=98.28,7.88,98.32,7.91&lang=${lang}`);
      // The map's points are the events' nearest occurrences, as the upcoming list's cards are.
      const { items } = await get(`/v1/events/upcoming?bbox=98.28,7.88,98.32,7.91&limit=50&lang=${lang}`);
      expect(points).toHaveLength(3);
      for (const p of points) {
        const card = items.find((c: { id: number }) => c.id === p.id);
        expect(card, p.slug).toBeDefined();
        expect(p).toEqual({
          id: card.id,
          slug: card.slug,
          title: card.title,
          category_code: card.category.code,
          day: card.day,
          start_time: card.start_time,
          lat: card.point.lat,
          lon: card.point.lon,
        });
      }
    }
  });

  describe('with more matching events than MAP_MAX_POINTS', () => {
    const CAP = 3;
    let small: TestApp;
    beforeAll(async () => {
      small = await startTestApp({ apps: [readApi], clock, config: { MAP_MAX_POINTS: CAP } });
      await loadCatalog(small, 'events/catalog.ndjson');
    });
    afterAll(async () => small?.close());
    const map = async (qs: string) => {
      const res = await http(small.url, 'GET', `/v1/events/map${qs}`);
      expect(res.status, res.text).toBe(200);
      return res.body as {
        points: Array<{ slug: string; day: string; start_time: string }>;
        truncated: boolean;
        total: number;
      };
    };

    it('gives at most MAP_MAX_POINTS points, the nearest ones, with truncated=true and the full total', async () => {
      const body = await map('?zoom=14');
      expect(body.points.map((p) => `${p.slug}@${p.day} ${p.start_time}`)).toEqual([
        'jazz-night@2026-12-01 20:00',
        'midnight-cinema@2026-12-02 00:30',
        'sunrise-yoga@2026-12-02 06:30',
      ]);
      expect(body.truncated).toBe(true);
      expect(body.total).toBe(7);
    });

    it('exactly MAP_MAX_POINTS matching events are not truncated', async () => {
      const body = await map('?zoom=14&bbox=98.28,7.88,98.32,7.91');
      expect(body.points).toHaveLength(CAP);
      expect(body.truncated).toBe(false);
      expect(body.total).toBe(CAP);
    });

    it('clusters (zoom up to 12) are never truncated', async () => {
      const body = await map('?zoom=10');
      expect(body.truncated).toBe(false);
      expect(body.total).toBe(7);
    });
  });

  it('needs zoom', async () => {
    const e = expectEnvelope(await http(t.url, 'GET', '/v1/events/map'), 400, 'validation_error');
    expect(e.details.field).toBe('zoom');
  });
});

describe('GET /v1/events/{slug}', () => {
  it('returns the event card at its next occurrence, its description and next occurrences', async () => {
    const body = await get('/v1/events/puppet-show');
    expect(body).toMatchObject({ slug: 'puppet-show', title: 'Puppet show', day: '2026-12-04', start_time: '10:00' });
    expect(body.description).toBe('Traditional puppets.');
    expect(body.next_occurrences.map((o: { start_time: string }) => o.start_time)).toEqual(['10:00', '19:00']);
  });

  it('leaves out occurrences that have ended', async () => {
    const body = await get('/v1/events/morning-market');
    expect(body.next_occurrences.map((o: { day: string }) => o.day)).toEqual(['2026-12-08']);
  });

  it('answers 404 not_found for an unknown or unpublished event', async () => {
    expectEnvelope(await http(t.url, 'GET', '/v1/events/no-such-event'), 404, 'not_found');
    expectEnvelope(await http(t.url, 'GET', '/v1/events/draft-gig'), 404, 'not_found');
  });

  it('never reads categories, upcoming, calendar, feed or map as a slug, even with an event slugged "upcoming"', async () => {
    expect(Array.isArray(await get('/v1/events/categories'))).toBe(true);
    const upcoming = await get('/v1/events/upcoming');
    expect(upcoming).toHaveProperty('items');
    expect(upcoming).not.toHaveProperty('next_occurrences');
    expect(await get('/v1/events/calendar')).toHaveProperty('days');
    expect(await get('/v1/events/feed')).toHaveProperty('items');
    expectEnvelope(await http(t.url, 'GET', '/v1/events/map'), 400, 'validation_error');
  });
});

describe('GET /v1/events/categories', () => {
  it('lists event categories in the request language with English fallback', async () => {
    const ru = await get('/v1/events/categories', { 'accept-language': 'ru' });
    const byCode = Object.fromEntries(ru.map((c: { code: string; name: string }) => [c.code, c]));
    expect(Object.keys(byCode).sort()).toEqual(['film', 'market', 'music', 'party', 'theatre', 'workshop', 'yoga']);
    expect(byCode.yoga).toMatchObject({ kind: 'event', name: 'Йога', lang: 'ru' });
    expect(byCode.party).toMatchObject({ name: 'Party', lang: 'en' });
    expect(byCode.diving).toBeUndefined();
  });
});

describe('OpenAPI', () => {
  it('documents every events route with its shapes', async () => {
    const res = await http(t.url, 'GET', '/v1/openapi.json');
    expect(res.status, res.text).toBe(200);
    const doc = res.body;
    for (const p of ['calendar', 'upcoming', 'feed', 'map', 'categories', '{slug}']) {
      expect(doc.paths[`/v1/events/${p}`]?.get, p).toBeDefined();
    }
    for (const id of [
      'EventCard',
      'CalendarDay',
      'CalendarResponse',
      'UpcomingResponse',
      'EventFeedResponse',
      'EventMapResponse',
      'EventPageResponse',
    ]) {
      expect(doc.components.schemas[id], id).toBeDefined();
    }
    // The feed documents its paging: read as of its first page, a cursor for its own feed only.
    const feedDoc = doc.paths['/v1/events/feed'].get;
    expect(feedDoc.description).toMatch(/read as of its first page/);
    expect(feedDoc.description).toMatch(/400 `validation_error` on `cursor`/);
    const names = doc.paths['/v1/events/upcoming'].get.parameters.map((p: { name: string }) => p.name);
    for (const n of [
      'day',
      'day_from',
      'day_to',
      'category',
      'entry',
      'time',
      'audience',
      'crowd',
      'event_lang',
      'q',
      'bbox',
      'near',
      'radius_m',
      'timezone',
      'cursor',
      'limit',
      'days',
      'with_total',
    ]) {
      expect(names, n).toContain(n);
    }
  });
});
