import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import ICAL from 'ical.js';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoCatalog } from '@guest/indexer';
import { readApi } from '@guest/read-api';
import { webClient } from '@guest/server/web';
import { writeApi } from '@guest/write-api';
import { buildWeb } from '../../scripts/web-build.ts';
import { http } from '../support/http.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { launchChromium, screenshot, watchApi } from './web/browser.ts';

/**
 * The events screens of the web client (apps/web/src/screens/events) in headless Chromium against
 * the API with the demo catalog (its 150 events spread over seven regions): the lists narrowed to
 * the events region of `/v1/config`, days with their month, category and venue said once, the
 * event page's map and its iCalendar file. What the page shows is checked against the API.
 */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });

interface Card {
  slug: string;
  day: string;
  start_at: string;
  end_at: string;
  timezone: string;
  category: { name: string };
  venue: { name: string; place_name: string | null };
  place: { slug: string };
  point: { lat: number; lon: number };
}

let t: TestApp;
let browser: Browser;
let context: BrowserContext;
let api: ReturnType<typeof watchApi>;
let region: { slug: string; name: string };

beforeAll(async () => {
  buildWeb({ ifStale: true, quiet: true });
  t = await startTestApp({ apps: [writeApi, readApi, webClient] });
  await loadDemoCatalog(t.runtime, { listings: 200, progress: false });
  region = (await http(t.url, 'GET', '/v1/config')).body.region;
  browser = await launchChromium();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});
afterEach(async () => {
  await context?.close();
});

async function open(path: string, locale = 'en-US'): Promise<Page> {
  context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale, acceptDownloads: true });
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error(`[page] ${err.message}`));
  api = watchApi(page);
  await page.goto(`${t.url}${path}`);
  return page;
}

const get = async (url: URL | string) => {
  const res = await http(t.url, 'GET', typeof url === 'string' ? url : url.pathname + url.search);
  expect(res.status, res.text).toBe(200);
  return res.body;
};

/** The region a place is in, from its path (`/v1/places/{slug}`). */
const placeCache = new Map<string, string[]>();
async function pathOf(slug: string): Promise<string[]> {
  if (!placeCache.has(slug)) {
    const card = await get(`/v1/places/${encodeURIComponent(slug)}`);
    placeCache.set(slug, [...card.path.map((p: { slug: string }) => p.slug), card.slug]);
  }
  return placeCache.get(slug)!;
}

const axeSource = () => readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core on the page as it stands: the rules' ids of critical violations (none expected). */
async function criticalViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(await axeSource());
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string }> }> } }
    ).axe;
    return (await axe.run()).violations;
  });
  return violations.filter((v) => v.impact === 'critical').map((v) => v.id);
}

const slugsOnPage = (p: Page) =>
  p.locator('.event-list .card').evaluateAll((els) => els.map((e) => e.getAttribute('data-slug')));

describe('events in the browser', { timeout: 120_000 }, () => {
  it('lists only the events of the config region, and of every place when asked', async () => {
    expect(region.slug).toBe('phuket');
    const p = await open('/events?lang=en');
    await p.locator('.event-list .card').first().waitFor({ timeout: 30_000 });
    await api.settled();
    expect(await p.getByRole('combobox', { name: 'Place' }).inputValue()).toBe(region.slug);

    const asked = api.last('/v1/events/upcoming');
    const upcoming = await get(asked);
    expect(await slugsOnPage(p)).toEqual(upcoming.items.map((e: Card) => e.slug));
    expect(upcoming.items.length).toBeGreaterThan(0);
    // Every card is of a place in the region, as the API's places say.
    for (const e of upcoming.items as Card[]) expect(await pathOf(e.place.slug), e.slug).toContain(region.slug);
    // The calendar strip counts the same events.
    const cal = await get(api.last('/v1/events/calendar'));
    expect(api.last('/v1/events/calendar').searchParams.get('q')).toBe(asked.searchParams.get('q'));
    const everywhere = await get(`/v1/events/calendar?days=14&timezone=Asia%2FBangkok`);
    const total = (c: { days: Array<{ count: number }> }) => c.days.reduce((n, d) => n + d.count, 0);
    expect(total(cal)).toBeLessThan(total(everywhere));
    await screenshot(p, 'events-region');
    expect(await criticalViolations(p)).toEqual([]);

    // "All places": the lists are no longer narrowed, events of other regions come.
    await p.getByRole('combobox', { name: 'Place' }).selectOption('all');
    await p.waitForURL((u) => u.searchParams.get('place') === 'all');
    await poll(() => api.last('/v1/events/upcoming').searchParams.get('q')).toBeNull();
    await api.settled();
    const all = await get(api.last('/v1/events/upcoming'));
    await poll(() => slugsOnPage(p)).toEqual(all.items.map((e: Card) => e.slug));
    const regions = new Set(await Promise.all((all.items as Card[]).map(async (e) => (await pathOf(e.place.slug))[1])));
    expect(regions.size).toBeGreaterThan(1);

    // Another region chosen: only its events.
    await p.getByRole('combobox', { name: 'Place' }).selectOption('bangkok');
    await p.waitForURL((u) => u.searchParams.get('place') === 'bangkok');
    await poll(() => api.last('/v1/events/upcoming').searchParams.get('q')).toBe('Bangkok');
    await api.settled();
    const bangkok = await get(api.last('/v1/events/upcoming'));
    await poll(() => slugsOnPage(p)).toEqual(bangkok.items.map((e: Card) => e.slug));
    for (const e of bangkok.items as Card[]) expect(await pathOf(e.place.slug)).toContain('bangkok');
  });

  it('narrows to the region in another interface language too (the name in Thai)', async () => {
    const p = await open('/events?lang=th', 'th-TH');
    await p.locator('.event-list .card').first().waitFor({ timeout: 30_000 });
    await api.settled();
    const upcoming = await get(api.last('/v1/events/upcoming'));
    expect(upcoming.items.length).toBeGreaterThan(0);
    for (const e of upcoming.items as Card[]) expect(await pathOf(e.place.slug), e.slug).toContain(region.slug);
  });

  it('labels days with their month, and says category and venue once', async () => {
    const p = await open('/events?lang=en');
    await p.locator('.event-list .card').first().waitFor({ timeout: 30_000 });
    await api.settled();
    const cal = await get(api.last('/v1/events/calendar'));
    const label = (date: string) =>
      new Intl.DateTimeFormat('en', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
        new Date(`${date}T00:00:00Z`),
      );
    const format = (date: string, opts: Intl.DateTimeFormatOptions) =>
      new Intl.DateTimeFormat('en', { ...opts, timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
    // Each day of the strip: its weekday (or "Today") over its day and month.
    const strip = await p.locator('.calendar .day').evaluateAll((els) =>
      els.map((e) => ({
        date: e.getAttribute('data-date')!,
        name: e.querySelector('.day-name')?.textContent,
        day: e.querySelector('.day-date')?.textContent,
      })),
    );
    expect(strip.map((d) => d.date)).toEqual(cal.days.map((d: { date: string }) => d.date));
    for (const d of strip) {
      expect(d.day).toBe(format(d.date, { day: 'numeric', month: 'short' }));
      expect(d.day).toMatch(/Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec/);
      expect(d.name).toBe(d.date === cal.today ? 'Today' : format(d.date, { weekday: 'short' }));
    }

    const upcoming = (await get(api.last('/v1/events/upcoming'))).items as Card[];
    const cards = await p.locator('.event-list .card').evaluateAll((els) =>
      els.map((e) => ({
        place: e.querySelector('.card-place')?.textContent ?? '',
        time: e.querySelector('time')?.textContent ?? '',
      })),
    );
    expect(cards).toHaveLength(upcoming.length);
    for (const [i, card] of cards.entries()) {
      const e = upcoming[i]!;
      expect(card.time.startsWith(`${label(e.day)} `), card.time).toBe(true);
      const parts: string[] = String(card.place).split(' · ');
      expect(new Set(parts).size, card.place).toBe(parts.length);
      expect(
        parts.filter((s) => s === e.category.name),
        card.place,
      ).toHaveLength(1);
      expect(parts[0]).toBe(e.category.name);
      if (e.venue.place_name) expect(parts.filter((s) => s === e.venue.place_name)).toHaveLength(1);
      expect(card.place).not.toMatch(/, /);
    }
  });

  it("shows the event's map at its point and offers an .ics file of an occurrence in the venue's zone", async () => {
    const { items } = await get('/v1/events/upcoming?limit=1&q=Phuket');
    const slug = (items as Card[])[0]!.slug;
    const event = await get(`/v1/events/${encodeURIComponent(slug)}`);
    const p = await open(`/events/${encodeURIComponent(slug)}?lang=en`);
    await p.locator('.event-page h1').waitFor();
    expect(await p.locator('.event-page .card-place').innerText()).not.toMatch(/(\b\w[\w ]*\b) · \1/);

    const map = p.locator('.venue-map');
    await poll(() => map.getAttribute('data-ready')).toBe('true');
    expect(await p.getByRole('region', { name: 'Map of the venue' }).count()).toBe(1);
    expect(Number(await map.getAttribute('data-lat'))).toBe(event.point.lat);
    expect(Number(await map.getAttribute('data-lon'))).toBe(event.point.lon);
    expect(await map.locator('canvas[role="region"]').count()).toBe(1);
    expect(await map.locator('.venue-pin').count()).toBe(1);
    // The test server has no map provider: the offline land is drawn around the venue.
    await poll(() => map.getAttribute('data-land')).toBe('true');
    await screenshot(p, 'event-page-map', { fullPage: true });
    expect(await criticalViolations(p)).toEqual([]);

    const occurrence = event.next_occurrences[0] as { start_at: string; end_at: string };
    const buttons = p.getByRole('button', { name: 'Add to calendar (.ics)' });
    expect(await buttons.count()).toBe(event.next_occurrences.length);
    const download = p.waitForEvent('download');
    await buttons.first().click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(new RegExp(`^${slug}-\\d{8}\\.ics$`));
    const text = await readFile((await file.path())!, 'utf8');
    expect(text.startsWith('BEGIN:VCALENDAR\r\n')).toBe(true);
    for (const line of text.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);

    const comp = new ICAL.Component(ICAL.parse(text));
    const tz = comp.getFirstSubcomponent('vtimezone')!;
    expect(tz.getFirstPropertyValue('tzid')).toBe(event.timezone);
    ICAL.TimezoneService.register(new ICAL.Timezone(tz));
    const vevent = comp.getFirstSubcomponent('vevent')!;
    expect(vevent.getFirstProperty('dtstart')?.getParameter('tzid')).toBe(event.timezone);
    const parsed = new ICAL.Event(vevent);
    expect(parsed.summary).toBe(event.title);
    expect(parsed.startDate.toJSDate().toISOString()).toBe(new Date(occurrence.start_at).toISOString());
    expect(parsed.endDate.toJSDate().toISOString()).toBe(new Date(occurrence.end_at).toISOString());
    expect(vevent.getFirstPropertyValue('geo')).toEqual([event.point.lat, event.point.lon]);
    expect(parsed.location).toContain(event.venue.place_name ?? event.venue.name);
  });
});
