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

interface Card {
  id: number;
  slug: string;
  day: string;
  start_time: string;
  title: string;
  [k: string]: unknown;
}
const up = async (qs = '', headers: Record<string, string> = {}) => {
  const res = await http(t.url, 'GET', `/v1/events/upcoming${qs}`, { headers });
  expect(res.status, res.text).toBe(200);
  return res.body as { items: Card[]; next_cursor: string | null; has_more: boolean; total: number | null };
};
/** The pages of a list from `cursor` on (from the first page without it), following `next_cursor`. */
const pageAll = async (qs: string, cursor: string | null = null) => {
  const pages: Array<Awaited<ReturnType<typeof up>>> = [];
  let started = false;
  while ((!started || cursor) && pages.length < 20) {
    started = true;
    const page = await up(`${qs}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(page.has_more).toBe(page.next_cursor !== null);
    pages.push(page);
    cursor = page.next_cursor;
  }
  return pages;
};
const slots = (items: Card[]) => items.map((c) => `${c.slug}@${c.day} ${c.start_time}`);
const slugs = (items: Card[]) => items.map((c) => c.slug);
/** Every event of the default window, in list order. */
const ALL = [
  'jazz-night',
  'midnight-cinema',
  'sunrise-yoga',
  'thai-cooking-class',
  'full-moon-party',
  'puppet-show',
  'morning-market',
];

describe('GET /v1/events/upcoming', () => {
  it('rules 1 and 2: one card per event at its nearest matching day, ordered by day, start time, event', async () => {
    const body = await up();
    expect(slots(body.items)).toEqual([
      'jazz-night@2026-12-01 20:00',
      'midnight-cinema@2026-12-02 00:30',
      'sunrise-yoga@2026-12-02 06:30',
      'thai-cooking-class@2026-12-02 13:00',
      'full-moon-party@2026-12-03 22:00',
      'puppet-show@2026-12-04 10:00',
      'morning-market@2026-12-08 08:00', // today's market has ended: its nearest day is Dec 8
    ]);
    expect(body.has_more).toBe(false);
    expect(body.next_cursor).toBeNull();
    expect(body.total).toBeNull();
  });

  it('carries the full EventCard in the request language with English fallback and a translation marker', async () => {
    const body = await up('?category=workshop', { 'accept-language': 'ru' });
    expect(body.items[0]).toMatchObject({
      slug: 'thai-cooking-class',
      title: 'Кулинарный мастер-класс',
      category: { code: 'workshop', name: 'Мастер-класс' },
      day: '2026-12-02',
      start_time: '13:00',
      end_time: '15:00',
      ends_next_day: false,
      start_at: '2026-12-02T06:00:00Z',
      timezone: 'Asia/Bangkok',
      entry: 'paid',
      price_minor: 120000,
      currency: 'THB',
      audience: 'family',
      crowd: 'intimate',
      event_lang: 'ru',
      venue: { name: 'Kata kitchen', place_name: 'Ката' },
      point: { lat: 7.819, lon: 98.299 },
      lang: 'ru',
      translated: false,
    });
    const en = await up('?category=workshop&lang=en');
    expect(en.items[0]).toMatchObject({ title: 'Thai cooking class', lang: 'en', translated: true });
  });

  it('a matching later occurrence is the card when the nearest one does not match (time=evening)', async () => {
    const body = await up('?time=evening');
    expect(slots(body.items)).toEqual([
      'jazz-night@2026-12-01 20:00',
      'midnight-cinema@2026-12-02 00:30',
      'full-moon-party@2026-12-03 22:00',
      'puppet-show@2026-12-04 19:00',
    ]);
    expect(slugs((await up('?time=morning')).items)).toEqual(['sunrise-yoga', 'puppet-show', 'morning-market']);
    expect(slugs((await up('?time=day')).items)).toEqual(['thai-cooking-class']);
  });

  it.each([
    ['?category=yoga,market', ['sunrise-yoga', 'morning-market']],
    ['?category=yoga&category=film', ['midnight-cinema', 'sunrise-yoga']],
    ['?entry=free', ['midnight-cinema', 'sunrise-yoga', 'morning-market']],
    ['?entry=paid', ['jazz-night', 'thai-cooking-class', 'full-moon-party', 'puppet-show']],
    ['?audience=adults', ['jazz-night', 'midnight-cinema', 'full-moon-party']],
    ['?crowd=small,intimate', ['sunrise-yoga', 'thai-cooking-class', 'puppet-show']],
    ['?event_lang=th', ['puppet-show', 'morning-market']],
    ['?event_lang=multi', ['sunrise-yoga', 'full-moon-party']],
    ['?q=cooking', ['thai-cooking-class']],
    ['?q=%D0%BA%D1%83%D0%BB%D0%B8%D0%BD%D0%B0%D1%80%D0%BD%D1%8B%D0%B9', ['thai-cooking-class']], // "кулинарный"
    ['?q=%E0%B8%95%E0%B8%A5%E0%B8%B2%E0%B8%94', ['morning-market']], // Thai "ตลาด" (market)
    ['?q=bangla', ['full-moon-party']], // venue name
    ['?q=%D0%BA%D1%83%D0%BB%D0%B8%D0%BD%D0%B0%D1%80%D0%BD%D0%BE%D0%B3%D0%BE', ['thai-cooking-class']], // "кулинарного": a word form
    ['?q=%D0%9A%D0%B0%D1%82%D0%B0%20yoga', ['sunrise-yoga']], // "Ката yoga": two languages in one query
    ['?q=classes', ['thai-cooking-class']], // English plural
    ['?q=nothing-like-this', []],
    ['?q=patong%20jazz', ['jazz-night']], // place and title, all words
    ['?bbox=98.28,7.88,98.32,7.91', ['jazz-night', 'midnight-cinema', 'full-moon-party']],
    ['?near=7.8206,98.2986&radius_m=1000', ['sunrise-yoga', 'thai-cooking-class', 'puppet-show', 'morning-market']],
    // `near` alone filters nothing, as in the listings search (it used to cut at 10 km).
    ['?near=13.7563,100.5018', ALL],
    // A `q` without a word is absent (it used to find nothing).
    ['?q=%21%3F', ALL], // "!?"
    ['?q=%20...%20', ALL],
    ['?day=2026-12-04', ['sunrise-yoga', 'puppet-show']],
    ['?day_from=2026-12-03&day_to=2026-12-05', ['full-moon-party', 'sunrise-yoga', 'puppet-show', 'jazz-night']],
    ['?days=2', ['jazz-night', 'midnight-cinema', 'sunrise-yoga', 'thai-cooking-class']],
    [
      '?days=1&day_to=2026-12-03',
      ['jazz-night', 'midnight-cinema', 'sunrise-yoga', 'thai-cooking-class', 'full-moon-party'],
    ],
    ['?days=1&day=2026-12-08', ['morning-market']],
  ])('filter %s', async (qs, expected) => {
    expect(slugs((await up(qs)).items)).toEqual(expected);
  });

  it('with day_from only, the window of `days` days starts at day_from', async () => {
    expect(slugs((await up('?day_from=2026-12-03&days=3')).items)).toEqual([
      'full-moon-party',
      'sunrise-yoga',
      'puppet-show',
      'jazz-night',
    ]);
    // Past the default window (30 days from today): the window moves, it is not empty.
    expect(slots((await up('?day_from=2027-02-05')).items)[0]).toMatch(/^\S+@2027-02-0[5-9] /);
  });

  it('rule 3: reads schedules up to the 180-day horizon and no further', async () => {
    // 2027-05-28 (a Friday) is the last day of the horizon; the yoga runs until June 2027.
    expect(slots((await up('?day=2027-05-28')).items)).toEqual(['sunrise-yoga@2027-05-28 06:30']);
    expect((await up('?day=2027-05-31')).items).toEqual([]);
    const all = await up('?day_to=2027-12-31&with_total=true&limit=100');
    expect(slugs(all.items)).not.toContain('far-future-fest');
    expect(slugs(all.items)).toContain('upcoming');
    expect(all.total).toBe(8);
  });

  it('with_total counts distinct matching events; the draft event never appears', async () => {
    const body = await up('?with_total=true');
    expect(body.total).toBe(7);
    expect(slugs(body.items)).not.toContain('draft-gig');
    expect((await up('?with_total=true&entry=free')).total).toBe(3);
  });

  it('pages with an opaque cursor: every event once, in order, across pages', async () => {
    const all = slugs((await up()).items);
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await up(`?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      seen.push(...slugs(page.items));
      expect(page.items.length).toBeLessThanOrEqual(2);
      expect(page.has_more).toBe(page.next_cursor !== null);
      cursor = page.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(4);
    expect(seen).toEqual(all);
  });

  it('refuses a cursor of another list or other filters, and a forged one', async () => {
    const first = await up('?limit=2');
    const c = encodeURIComponent(first.next_cursor!);
    let e = expectEnvelope(
      await http(t.url, 'GET', `/v1/events/upcoming?limit=2&entry=free&cursor=${c}`),
      400,
      'validation_error',
    );
    expect(e.details.field).toBe('cursor');
    e = expectEnvelope(await http(t.url, 'GET', `/v1/events/feed?limit=2&cursor=${c}`), 400, 'validation_error');
    expect(e.details.field).toBe('cursor');
    e = expectEnvelope(await http(t.url, 'GET', `/v1/events/upcoming?cursor=abc.def`), 400, 'validation_error');
    expect(e.details.field).toBe('cursor');
  });

  it('a filter that moves an event to a later day pages one card per event at its nearest matching day (time=evening, limit=1)', async () => {
    const pages = await pageAll('?time=evening&limit=1');
    expect(pages.map((p) => slots(p.items))).toEqual([
      ['jazz-night@2026-12-01 20:00'],
      ['midnight-cinema@2026-12-02 00:30'],
      ['full-moon-party@2026-12-03 22:00'],
      ['puppet-show@2026-12-04 19:00'], // its 10:00 show that day does not match
    ]);
  });

  describe('a list is read as of the instant of its first page', () => {
    afterEach(() => clock.set(NOW));

    it('an occurrence ending between two pages does not move its event past the cursor (no repeat)', async () => {
      const whole = slots((await up()).items);
      const first = await up('?limit=2');
      expect(slots(first.items)).toEqual(['jazz-night@2026-12-01 20:00', 'midnight-cinema@2026-12-02 00:30']);
      // 23:45 in Bangkok: tonight's jazz (until 23:30) has ended; its next show is on Dec 5.
      clock.set('2026-12-01T16:45:00Z');
      const rest = await pageAll('?limit=2', first.next_cursor);
      expect([...slots(first.items), ...rest.flatMap((p) => slots(p.items))]).toEqual(whole);
      // A new list starts at the clock again.
      expect(slots((await up('?limit=1')).items)).toEqual(['midnight-cinema@2026-12-02 00:30']);
    });

    it('a list started at 23:59 continues at 00:01 (today changed) without a repeat, a gap or a 400', async () => {
      clock.set('2026-12-03T16:59:00Z'); // 23:59 on Dec 3 in Bangkok
      const whole = slots((await up('?days=2')).items);
      expect(whole).toEqual([
        'full-moon-party@2026-12-03 22:00',
        'sunrise-yoga@2026-12-04 06:30',
        'puppet-show@2026-12-04 10:00',
      ]);
      const first = await up('?days=2&limit=1');
      clock.set('2026-12-03T17:01:00Z'); // 00:01 on Dec 4
      const rest = await pageAll('?days=2&limit=1', first.next_cursor);
      // The window stays Dec 3-4 of the first page: Dec 5's jazz does not join the list.
      expect([...slots(first.items), ...rest.flatMap((p) => slots(p.items))]).toEqual(whole);
      expect(rest.at(-1)!.has_more).toBe(false);
    });

    it('the cursor still belongs to its filters only', async () => {
      clock.set('2026-12-03T16:59:00Z');
      const first = await up('?days=2&limit=1');
      clock.set('2026-12-03T17:01:00Z');
      const c = encodeURIComponent(first.next_cursor!);
      for (const qs of [`?days=3&limit=1&cursor=${c}`, `?days=2&limit=1&time=morning&cursor=${c}`]) {
        const e = expectEnvelope(await http(t.url, 'GET', `/v1/events/upcoming${qs}`), 400, 'validation_error');
        expect(e.details.field, qs).toBe('cursor');
      }
    });

    it('refuses (400 on cursor) a signed cursor without the instant of its list, as issued before it was pinned', async () => {
      const old = t.app.cursors.encode('events-upcoming', { h: 'x', k: Date.parse('2026-12-02T00:00:00Z'), id: 1 });
      const e = expectEnvelope(
        await http(t.url, 'GET', `/v1/events/upcoming?cursor=${encodeURIComponent(old)}`),
        400,
        'validation_error',
      );
      expect(e.details).toMatchObject({ field: 'cursor', reason: 'malformed' });
    });
  });

  describe('just before and just after midnight in Bangkok', () => {
    it('23:59 on Dec 3: the party that runs until 04:00 is still the first card', async () => {
      clock.set('2026-12-03T16:59:00Z');
      expect(slots((await up('?days=2')).items)).toEqual([
        'full-moon-party@2026-12-03 22:00',
        'sunrise-yoga@2026-12-04 06:30',
        'puppet-show@2026-12-04 10:00',
      ]);
    });
    it('00:01 on Dec 4: today is Dec 4, the party (a Dec 3 event on until 04:00) is still the first card', async () => {
      clock.set('2026-12-03T17:01:00Z');
      const body = await up('?days=2&with_total=true');
      expect(slots(body.items)).toEqual([
        'full-moon-party@2026-12-03 22:00',
        'sunrise-yoga@2026-12-04 06:30',
        'puppet-show@2026-12-04 10:00',
        'jazz-night@2026-12-05 20:00',
      ]);
      expect(body.total).toBe(4);
      clock.set(NOW);
    });
    it('04:01 on Dec 4: the party has ended and is gone', async () => {
      clock.set('2026-12-03T21:01:00Z');
      expect(slots((await up('?days=2')).items)).toEqual([
        'sunrise-yoga@2026-12-04 06:30',
        'puppet-show@2026-12-04 10:00',
        'jazz-night@2026-12-05 20:00',
      ]);
      clock.set(NOW);
    });
  });

  describe('validation: 400 validation_error naming the field', () => {
    it.each([
      ['?limit=0', 'limit'],
      ['?limit=101', 'limit'],
      ['?days=0', 'days'],
      ['?days=181', 'days'],
      ['?with_total=yes', 'with_total'],
      ['?timezone=Asia/Nowhere', 'timezone'],
      ['?category=Bad%20Code', 'category'],
      ['?day=tomorrow', 'day'],
    ])('%s → %s', async (qs, field) => {
      const e = expectEnvelope(await http(t.url, 'GET', `/v1/events/upcoming${qs}`), 400, 'validation_error');
      expect(e.details.field).toBe(field);
    });
  });
});
