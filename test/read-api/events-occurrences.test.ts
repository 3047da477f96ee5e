import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '@guest/runtime';
import { readApi } from '@guest/read-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { http } from '../support/http.ts';
import { loadCatalogText } from '../fixtures/events/load.ts';

/**
 * One card per occurrence in the by-day feed, and keyset paging over a total order: a one-off date
 * that repeats a weekly slot is one occurrence; two sessions of one event on one day at one start
 * time (ending at different times) are two, and paging one by one finds both exactly once.
 */

// Tuesday 2026-12-01, 17:00 in Bangkok.
const clock = fixedClock('2026-12-01T10:00:00Z');
let t: TestApp;

function event(n: number, slug: string, schedule: unknown[]): string {
  return JSON.stringify({
    type: 'event',
    external_id: `OC-${n}`,
    slug,
    status: 'published',
    title: { en: slug },
    description: {},
    original_lang: 'en',
    category: 'workshop',
    place: 'P-KATA',
    venue: { name: { en: 'Kata hall' }, lat: 7.82, lon: 98.297 },
    timezone: 'Asia/Bangkok',
    entry: 'free',
    price: { amount_minor: 0, currency: 'THB' },
    audience: 'family',
    crowd: 'small',
    event_lang: 'en',
    schedule,
  });
}

const CATALOG = [
  '{"type":"currency","code":"THB","name":{"en":"Thai baht"},"symbol":"฿","minor_units":2}',
  '{"type":"place","external_id":"P-TH","parent":null,"level":"country","slug":"thailand","name":{"en":"Thailand"},"timezone":"Asia/Bangkok","currency":"THB","center":{"lat":13.75,"lon":100.5}}',
  '{"type":"place","external_id":"P-KATA","parent":"P-TH","level":"district","slug":"kata","name":{"en":"Kata"},"timezone":"Asia/Bangkok","currency":"THB","center":{"lat":7.8206,"lon":98.2986}}',
  '{"type":"category","kind":"event","code":"workshop","name":{"en":"Workshop"}}',
  // Fridays 20:00–23:00, and Friday Dec 4 once more as a one-off with the same times.
  event(1, 'friday-jam', [
    { weekly: { days: ['fri'], start: '20:00', end: '23:00', from: '2026-11-01', until: '2026-12-31' }, except: [] },
    { date: '2026-12-04', start: '20:00', end: '23:00' },
  ]),
  // Two sessions on Dec 2, both starting at 18:00: a short one and a long one.
  event(2, 'two-sessions', [
    { date: '2026-12-02', start: '18:00', end: '19:00' },
    { date: '2026-12-02', start: '18:00', end: '21:00' },
  ]),
].join('\n');

beforeAll(async () => {
  t = await startTestApp({ apps: [readApi], clock });
  await loadCatalogText(t, `${CATALOG}\n`);
});
afterAll(async () => t?.close());

interface Card {
  slug: string;
  day: string;
  start_time: string;
  end_time: string;
}
interface FeedPage {
  items: Array<{ date: string; events: Card[] }>;
  next_cursor: string | null;
  has_more: boolean;
}
const feed = async (qs: string): Promise<FeedPage> => {
  const res = await http(t.url, 'GET', `/v1/events/feed${qs}`);
  expect(res.status, res.text).toBe(200);
  return res.body as FeedPage;
};
/** Every card of the feed, following `next_cursor`. */
async function feedAll(qs: string): Promise<string[]> {
  const out: string[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 20; i++) {
    const page = await feed(`${qs}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    for (const d of page.items) for (const c of d.events) out.push(`${c.slug}@${c.day} ${c.start_time}-${c.end_time}`);
    cursor = page.next_cursor;
    if (!cursor) break;
  }
  return out;
}

describe('GET /v1/events/feed: one card per occurrence', () => {
  it('a one-off date that repeats a weekly slot is one card', async () => {
    expect(await feedAll('?day=2026-12-04')).toEqual(['friday-jam@2026-12-04 20:00-23:00']);
  });

  it('two sessions of one event at the same day and start time: both, once each, whatever the page size', async () => {
    const expected = ['two-sessions@2026-12-02 18:00-19:00', 'two-sessions@2026-12-02 18:00-21:00'];
    expect(await feedAll('?day=2026-12-02')).toEqual(expected);
    expect(await feedAll('?day=2026-12-02&limit=1')).toEqual(expected);
  });

  it('pages of one card give the same list as one page', async () => {
    const whole = await feedAll('?days=14&limit=100');
    expect(whole).toHaveLength(4); // Dec 2 twice, Fridays Dec 4 and Dec 11
    expect(await feedAll('?days=14&limit=1')).toEqual(whole);
  });
});
