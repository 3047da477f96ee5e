import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '@guest/runtime';
import { readApi } from '@guest/read-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { http } from '../support/http.ts';
import { loadCatalogText } from '../fixtures/events/load.ts';
import { BULK_EVENTS, bulkEvents, pagingCatalog } from '../fixtures/events/paging.ts';

/**
 * Keyset paging of `GET /v1/events/upcoming` is exact: every event once, in order, however many
 * events match (more than one page's worth of engine buckets, with events that come back on
 * later days), and ties in day and start time on a page boundary neither repeat nor skip an event.
 */

// Tuesday 2026-12-01, 17:00 in Bangkok.
const clock = fixedClock('2026-12-01T10:00:00Z');
// More events than the old bucket cap of this list's later pages (100 at its smallest).
const MAX_EVENTS = 100;
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ apps: [readApi], clock });
  await loadCatalogText(t, pagingCatalog());
});
afterAll(async () => t?.close());

interface Card {
  id: number;
  slug: string;
  day: string;
  start_time: string;
}
interface Page {
  items: Card[];
  next_cursor: string | null;
  has_more: boolean;
  total: number | null;
}
const up = async (qs: string): Promise<Page> => {
  const res = await http(t.url, 'GET', `/v1/events/upcoming${qs}`);
  expect(res.status, res.text).toBe(200);
  return res.body as Page;
};
/** Every page of a list, following `next_cursor`. */
const pageAll = async (qs: string) => {
  const pages: Page[] = [];
  let cursor: string | null = null;
  do {
    const page = await up(`${qs}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(page.has_more).toBe(page.next_cursor !== null);
    pages.push(page);
    cursor = page.next_cursor;
  } while (cursor && pages.length < 500);
  return pages;
};
const slots = (items: Card[]) => items.map((c) => `${c.slug}@${c.day} ${c.start_time}`);

describe('GET /v1/events/upcoming paging', () => {
  it(`is exact beyond ${MAX_EVENTS} events: all ${BULK_EVENTS} events once, in order`, async () => {
    const expected = bulkEvents().map((e) => `${e.slug}@${e.day} ${e.start}`);
    expect(expected.length).toBeGreaterThan(MAX_EVENTS);
    const pages = await pageAll('?category=music&limit=40&with_total=true');
    expect(pages.map((p) => p.items.length)).toEqual([40, 40, 25]);
    expect(pages.map((p) => p.has_more)).toEqual([true, true, false]);
    expect(pages.flatMap((p) => slots(p.items))).toEqual(expected);
    expect(pages.map((p) => p.total)).toEqual([BULK_EVENTS, BULK_EVENTS, BULK_EVENTS]);
  });

  it('is exact one event per page, deep into the list (every page boundary)', async () => {
    const pages = await pageAll('?category=music&limit=1');
    expect(pages).toHaveLength(BULK_EVENTS);
    expect(pages.flatMap((p) => slots(p.items))).toEqual(bulkEvents().map((e) => `${e.slug}@${e.day} ${e.start}`));
  });

  it('a tie in day and start time on a page boundary (limit=1) neither repeats nor skips', async () => {
    const all = (await up('?category=workshop&limit=100')).items;
    expect(slots(all)).toEqual([
      'early-workshop@2026-12-02 09:00',
      'tie-a@2026-12-03 18:00',
      'tie-b@2026-12-03 18:00',
      'late-workshop@2026-12-03 19:00',
    ]);
    // Order inside the tie: event id (rule 2).
    expect(all[1]!.id).toBeLessThan(all[2]!.id);
    for (const limit of [1, 2, 3]) {
      const pages = await pageAll(`?category=workshop&limit=${limit}`);
      expect(
        pages.flatMap((p) => slots(p.items)),
        `limit=${limit}`,
      ).toEqual(slots(all));
    }
    // The boundary inside the tie: page 2 ends with tie-a, page 3 starts with tie-b.
    const pages = await pageAll('?category=workshop&limit=1');
    expect(pages.map((p) => p.items.map((c) => c.slug))).toEqual([
      ['early-workshop'],
      ['tie-a'],
      ['tie-b'],
      ['late-workshop'],
    ]);
  });
});
