import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { loadDemoCatalog } from '@guest/indexer';
import { readApi } from '@guest/read-api';
import { webClient } from '@guest/server/web';
import { writeApi } from '@guest/write-api';
import { buildWeb } from '../../scripts/web-build.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { http } from '../support/http.ts';
import { launchChromium, screenshot, watchApi } from './web/browser.ts';

/**
 * Prices a guest can trust, the search box and the map (issue 35 points 5, 7 and 8), in headless
 * Chromium on the demo catalog: one display currency everywhere, marked approximate once; limits
 * converted with the currency; the price filter per price unit; totals for the dates; suggestions
 * that move the map, without look-alikes, with categories; pins that never overlap, and a card
 * that lights its pin up.
 */
const poll = <T>(fn: () => T | Promise<T>, opts: { timeout?: number } = {}) =>
  expect.poll(fn, { timeout: 15_000, ...opts });

let t: TestApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let api: ReturnType<typeof watchApi>;

beforeAll(async () => {
  buildWeb({ ifStale: true, quiet: true });
  t = await startTestApp({ apps: [writeApi, readApi, webClient] });
  await loadDemoCatalog(t.runtime, { progress: false });
  browser = await launchChromium();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});
afterEach(async () => {
  await context?.close();
});

async function open(path: string): Promise<Page> {
  await context?.close();
  context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US' });
  page = await context.newPage();
  api = watchApi(page);
  await page.goto(`${t.url}${path}`);
  return page;
}

const get = async (path: string) => {
  const res = await http(t.url, 'GET', path);
  expect(res.status, res.text).toBe(200);
  return res.body;
};

/** Patong's beach road at street level: the busiest part of the demo catalog (86 points at zoom 15). */
const STREET = 'map=15.00/7.89600/98.29700';

/** The bounding boxes of the map's markers, and how many objects they stand for. */
const markers = (p: Page) =>
  p.locator('.map .pin, .map .cluster').evaluateAll((els) =>
    els.map((e) => {
      const r = e.getBoundingClientRect();
      return {
        pin: e.classList.contains('pin'),
        text: e.textContent ?? '',
        count: e.classList.contains('pin') ? 1 : Number(e.textContent),
        box: { left: r.left, top: r.top, right: r.right, bottom: r.bottom },
      };
    }),
  );

type Box = { left: number; top: number; right: number; bottom: number };
const overlap = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

describe('prices in one currency', { timeout: 120_000 }, () => {
  it('shows pins, cards, the histogram and the filter in USD, each marked approximate once', async () => {
    const p = await open(`/?lang=en&kind=stay&currency=USD&filters=open&${STREET}`);
    await p.locator('.map .pin').first().waitFor({ timeout: 30_000 });
    await p.locator('.filters .histogram').waitFor();
    await api.settled();
    const other = /THB|฿|€|CN¥|RUB|₽/;
    const pins = (await markers(p)).filter((m) => m.pin).map((m) => m.text);
    expect(pins.length).toBeGreaterThan(0);
    for (const text of pins) {
      expect(text).toMatch(/^(≈ )?\$[\d,]+$/);
      expect(text).not.toMatch(other);
    }
    const feed = await get(api.last('/v1/search/listings').pathname + api.last('/v1/search/listings').search);
    const cards = await p.locator('.feed .card .card-price').allInnerTexts();
    expect(cards).toHaveLength(feed.items.length);
    feed.items.forEach((item: { currency: string }, i: number) => {
      const text = cards[i]!;
      expect(text).toContain('$');
      expect(text).not.toMatch(other);
      expect(text).not.toContain('approx');
      // Converted from another currency: one "≈"; a price in dollars already: none.
      expect(text.split('≈').length - 1, text).toBe(item.currency === 'USD' ? 0 : 1);
    });
    const values = await p.locator('.filters .price-values').innerText();
    expect(values).toMatch(/^≈ \$[\d,]+ – \$[\d,]+\+?$/);
    await screenshot(p, 'prices-usd');
  });

  it('converts the chosen limit when the currency changes: the same money, not the same number', async () => {
    const p = await open('/?lang=en&kind=stay&filters=open&price_unit=night&price_max=12413800');
    await p.locator('.filters .histogram').waitFor();
    await p.locator('select[name="currency"]').selectOption('USD');
    await p.waitForURL((u) => u.searchParams.get('currency') === 'USD');
    const fx = await get('/v1/fx/rates');
    const expected = Math.round((12413800 / 100) * fx.rates.USD * 100);
    expect(Number(new URL(p.url()).searchParams.get('price_max'))).toBe(expected);
    await p.locator('select[name="currency"]').selectOption('');
    await p.waitForURL((u) => !u.searchParams.has('currency'));
    // Back in baht: within rounding of where it started.
    expect(Math.abs(Number(new URL(p.url()).searchParams.get('price_max')) - 12413800)).toBeLessThan(200);
  });

  it('puts nightly and monthly stays on scales of their own, and a limit goes with its unit', async () => {
    const p = await open('/?lang=en&kind=stay&filters=open');
    await p.locator('.filters .histogram span').first().waitFor();
    await api.settled();
    const range = await get('/v1/search/price-range?kind=stay');
    const [night, month] = range.units;
    expect([night.price_unit, month.price_unit]).toEqual(['night', 'month']);
    expect(month.max_minor).toBeGreaterThan(night.max_minor * 3);
    // The bars are the nightly scale's, not the mixed one's (where nightly stays fill three bars).
    const bars = () =>
      p.locator('.filters .histogram span').evaluateAll((els) => els.map((e) => Number(e.dataset.count)));
    expect(await bars()).toEqual(night.histogram);
    expect(night.histogram.filter((n: number) => n > 0).length).toBeGreaterThan(10);
    // A limit on this scale sends the unit with it: no monthly stay is compared with it.
    const handle = p.locator('input[name="price_max"]');
    await handle.focus();
    for (let i = 0; i < 40; i++) await handle.press('ArrowLeft');
    await handle.dispatchEvent('change');
    await p.waitForURL((u) => u.searchParams.has('price_max'));
    expect(new URL(p.url()).searchParams.get('price_unit')).toBe('night');
    await api.settled();
    expect(api.last('/v1/search/listings').searchParams.get('price_unit')).toBe('night');
    const units = await p.locator('.feed .card .card-price .unit').allInnerTexts();
    expect(units.length).toBeGreaterThan(0);
    expect(new Set(units)).toEqual(new Set(['/ night']));
    // The monthly scale: the limits of the nightly one are dropped.
    await p.locator('input[name="price_unit"][value="month"]').check();
    await p.waitForURL((u) => u.searchParams.get('price_unit') === 'month' && !u.searchParams.has('price_max'));
    await poll(bars).toEqual(month.histogram);
  });

  it('shows the total of the dates on each card', async () => {
    const p = await open('/?lang=en&kind=stay&date_from=2027-02-01&date_to=2027-02-08');
    await p.locator('.feed .card').first().waitFor();
    await api.settled();
    const listed = api.last('/v1/search/listings');
    const feed = await get(listed.pathname + listed.search);
    const totals = await p
      .locator('.feed .card')
      .evaluateAll((els) => els.map((e) => e.querySelector('.card-total')?.textContent ?? null));
    expect(totals).toHaveLength(feed.items.length);
    feed.items.forEach((item: { total?: { nights: number; total_minor: number; currency: string } }, i: number) => {
      expect(item.total?.nights).toBe(7);
      const { total_minor, currency } = item.total!;
      // No currency chosen: every amount in the base currency, the converted ones marked "≈".
      if (currency !== 'THB') return expect(totals[i]).toMatch(/^≈ THB\s[\d,]+ in all, nights: 7$/);
      const amount = new Intl.NumberFormat('en', { style: 'currency', currency, maximumFractionDigits: 0 }).format(
        total_minor / 100,
      );
      expect(totals[i]).toBe(`${amount} in all, nights: 7`);
    });
    expect(await p.locator('.feed .card .card-price').allInnerTexts()).not.toContainEqual(
      expect.stringMatching(/\$|€|CN¥|RUB/),
    );
  });
});

describe('the search box', { timeout: 120_000 }, () => {
  const suggestions = (p: Page) => p.locator('#suggestions [role="option"]');

  it('moves the map to a place chosen in another part of the country', async () => {
    const p = await open('/?lang=en');
    await p.locator('.map .cluster, .map .pin').first().waitFor({ timeout: 30_000 });
    await api.settled();
    const before = new URL(p.url()).searchParams.get('map');
    await p.locator('#q').fill('Chiang Mai');
    const option = suggestions(p).filter({ hasText: 'Chiang Mai' }).first();
    await option.waitFor();
    await option.click();
    await p.waitForURL((u) => u.searchParams.get('q') === 'Chiang Mai' && u.searchParams.get('map') !== before);
    const place = await get('/v1/places/chiang-mai');
    const [, lat, lon] = new URL(p.url()).searchParams.get('map')!.split('/').map(Number);
    expect(Math.abs(lat! - place.center.lat)).toBeLessThan(0.01);
    expect(Math.abs(lon! - place.center.lon)).toBeLessThan(0.01);
    await api.settled();
    const [w, s, e, n] = api.last('/v1/search/listings').searchParams.get('bbox')!.split(',').map(Number);
    expect(place.center.lon > w! && place.center.lon < e! && place.center.lat > s! && place.center.lat < n!).toBe(true);
    await p.locator('.feed .card').first().waitFor();
    expect(await p.locator('.feed .empty').count()).toBe(0);
  });

  it('suggests each title once', async () => {
    const p = await open('/?lang=en');
    await p.locator('#q').fill('Scooter');
    await suggestions(p).first().waitFor();
    const texts = await suggestions(p).allInnerTexts();
    expect(texts.length).toBeGreaterThan(1);
    expect(new Set(texts).size).toBe(texts.length);
  });

  it('suggests the category of "diving" and of "массаж", and searches it when chosen', async () => {
    const en = await open('/?lang=en');
    await en.locator('#q').fill('diving');
    const diving = suggestions(en).filter({ hasText: /^Diving/ });
    await diving.waitFor();
    expect(await en.locator('#suggestions .group').allTextContents()).toContain('Categories');

    const ru = await open('/?lang=ru');
    await ru.locator('#q').fill('массаж');
    const massage = suggestions(ru).filter({ hasText: /^Массаж/ });
    await massage.waitFor();
    await massage.click();
    await ru.waitForURL((u) => u.searchParams.get('kind') === 'service' && u.searchParams.has('category_id'));
    await ru.locator('.feed .card').first().waitFor();
    const categories = await get(`/v1/categories?kind=service`);
    const code = categories.find(
      (c: { id: number }) => c.id === Number(new URL(ru.url()).searchParams.get('category_id')),
    );
    expect(code?.code).toBe('massage');
  });
});

describe('the map', { timeout: 120_000 }, () => {
  it('at street level no two markers overlap, and together they stand for every point of the answer', async () => {
    const p = await open(`/?lang=en&${STREET}`);
    await p.locator('.map .pin').first().waitFor({ timeout: 30_000 });
    await api.settled();
    const answer = api.last('/v1/search/map');
    const map = await get(answer.pathname + answer.search);
    await poll(async () => (await markers(p)).reduce((n, m) => n + m.count, 0)).toBe(map.points.length);
    const shown = await markers(p);
    expect(map.points.length).toBeGreaterThan(40);
    for (let i = 0; i < shown.length; i++)
      for (let j = i + 1; j < shown.length; j++)
        expect(overlap(shown[i]!.box, shown[j]!.box), `${shown[i]!.text} and ${shown[j]!.text}`).toBe(false);
    expect(shown.some((m) => !m.pin)).toBe(true);
    await screenshot(p, 'map-street-collapsed');

    // Zoomed out, the clusters do not overlap either.
    const wide = await open('/?lang=en&map=9.00/7.90000/98.40000');
    await wide.locator('.map .cluster').first().waitFor({ timeout: 30_000 });
    await api.settled();
    const clusters = await markers(wide);
    for (let i = 0; i < clusters.length; i++)
      for (let j = i + 1; j < clusters.length; j++) expect(overlap(clusters[i]!.box, clusters[j]!.box)).toBe(false);
  });

  it('lights up the pin of the card under the pointer; a tapped pin shows a small card linking to the listing', async () => {
    const p = await open(`/?lang=en&${STREET}`);
    await p.locator('.map .pin').first().waitFor({ timeout: 30_000 });
    await api.settled();
    const pinned = await p.locator('.map .pin').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-id'))));
    const cardIds = await p
      .locator('.feed .card')
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-id'))));
    const id = cardIds.find((c) => pinned.includes(c));
    expect(id, 'a card of the feed with its own pin on the map').toBeDefined();
    await p.locator(`.feed .card[data-id="${id}"]`).hover();
    await poll(() => p.locator('.map .active').count()).toBe(1);
    expect(await p.locator('.map .active').getAttribute('data-id')).toBe(String(id));
    // A card collapsed into a count marker lights the count marker up.
    const grouped = await p.locator('.map .cluster[data-ids]').first().getAttribute('data-ids');
    const inside = grouped ? Number(grouped.split(',')[0]) : null;
    if (inside && cardIds.includes(inside)) {
      await p.locator(`.feed .card[data-id="${inside}"]`).hover();
      await poll(() => p.locator('.map .cluster.active').count()).toBe(1);
    }
    await p.mouse.move(1200, 20);
    await poll(() => p.locator('.map .active').count()).toBe(0);

    await p.locator(`.map .pin[data-id="${id}"]`).click();
    const card = p.locator('.map-card');
    await card.waitFor();
    expect(await card.locator('a').first().getAttribute('href')).toMatch(new RegExp(`^/listings/${id}(\\?|$)`));
    await screenshot(p, 'map-small-card');
  });
});
