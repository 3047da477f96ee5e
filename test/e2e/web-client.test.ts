import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { loadDemoCatalog } from '@guest/indexer';
import { readApi } from '@guest/read-api';
import { webClient } from '@guest/server/web';
import { writeApi } from '@guest/write-api';
import { DEMO_ACCOUNT, ensureDemoAccount } from '@guest/write-api/demo';
import { buildWeb } from '../../scripts/web-build.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { http } from '../support/http.ts';
import { eventually } from '../support/eventually.ts';
import { launchChromium, screenshot, SHOTS, watchApi } from './web/browser.ts';

/**
 * The web client (apps/web) in headless Chromium against the API with the demo catalog (2,000
 * listings, 150 events), as a guest uses it: the page's feed, count button and map markers are
 * checked against what the API answers for the same request.
 */
/** The page answers in its own time (two cores shared with the engine): wait up to 10 s by default. */
const poll = <T>(fn: () => T | Promise<T>, opts: { timeout?: number } = {}) =>
  expect.poll(fn, { timeout: 10_000, ...opts });

let t: TestApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let api: ReturnType<typeof watchApi>;
const timings: string[] = [];

beforeAll(async () => {
  const built = buildWeb({ ifStale: true, quiet: true });
  if (built.built) timings.push(`page built in ${built.ms} ms`);
  // A small map answer limit, so that a district's points are truncated ("N more") at street zoom.
  // After two failed sign-ins from the address the server demands the puzzle (the last test).
  // Every page of this file is a guest of its own, but all come from one address within a minute or
  // two: past the per-address limit (600 a minute) the later pages got 429 on every search call.
  t = await startTestApp({
    apps: [writeApi, readApi, webClient],
    config: { MAP_MAX_POINTS: 40, CAPTCHA_AFTER_FAILED_LOGINS_PER_ADDRESS: 2, RATE_LIMIT_ADDRESS_PER_MIN: 100_000 },
  });
  const started = Date.now();
  await loadDemoCatalog(t.runtime, { progress: false });
  await ensureDemoAccount(t.runtime.database.db, t.config, t.runtime.clock.now());
  timings.push(`demo catalog loaded in ${Date.now() - started} ms`);
  browser = await launchChromium();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
  if (timings.length) console.log(`[web] ${timings.join('; ')}; screenshots in ${SHOTS}`);
});

async function open(path: string, viewport = { width: 1280, height: 800 }): Promise<Page> {
  await context?.close();
  context = await browser.newContext({ viewport, locale: 'en-US' });
  page = await context.newPage();
  api = watchApi(page);
  await page.goto(`${t.url}${path}`);
  return page;
}
afterEach(async () => {
  await context?.close();
});

const get = async (url: URL, token?: string) => {
  const res = await http(t.url, 'GET', url.pathname + url.search, token ? { token } : {});
  expect(res.status, res.text).toBe(200);
  return res.body;
};

/** The feed's cards, the count button and the map's markers agree with the API's answers to the page's own requests. */
async function expectPageAgreesWithApi(p: Page, token?: string, opts: { map?: boolean } = {}) {
  await api.settled();
  const feed = await get(api.last('/v1/search/listings'), token);
  const count = await get(api.last('/v1/search/count'));
  const ids = await p
    .locator('.feed .card')
    .evaluateAll((cards) => cards.map((c) => Number(c.getAttribute('data-id'))));
  expect(ids).toEqual(feed.items.map((i: { id: number }) => i.id));
  await poll(() => p.locator('.toolbar .show-results').textContent()).toContain(String(count.count));
  if (opts.map === false) return { feed, count: count.count as number, map: null };
  const map = await get(api.last('/v1/search/map'));
  // The markers are drawn once MapLibre has loaded, which it does after the cards are painted.
  // Markers that would overlap are collapsed into count markers: together they stand for the answer.
  const shown = () =>
    p
      .locator('.map .cluster, .map .pin')
      .evaluateAll((els) => els.reduce((n, e) => n + (e.classList.contains('pin') ? 1 : Number(e.textContent)), 0));
  await poll(shown).toBe(map.clusters.reduce((n: number, c: { count: number }) => n + c.count, 0) + map.points.length);
  expect(await p.locator('.map .cluster, .map .pin').count()).toBeLessThanOrEqual(
    map.clusters.length + map.points.length,
  );
  const more = p.locator('.map-more');
  if (map.truncated) expect(await more.innerText()).toContain(String(map.total - map.points.length));
  else expect(await more.count()).toBe(0);
  return { feed, count: count.count as number, map };
}

async function searchPlace(p: Page, text: string) {
  const box = p.locator('#q');
  await box.fill(text);
  // Places come first in the suggestions: the district itself.
  const option = p.locator('#suggestions [role="option"]', { hasText: text }).first();
  await option.waitFor({ timeout: 10_000 });
  await option.click();
  await p.waitForURL((u) => u.searchParams.get('q') !== null);
}

// A browser test waits for the page, the map and the engine: more than the tier's default.
describe('map and feed', { timeout: 90_000 }, () => {
  it('opens the map with markers, the feed and the count; measures the first map render', async () => {
    const p = await open('/?lang=en');
    await p.locator('.map .cluster, .map .pin').first().waitFor({ timeout: 30_000 });
    const agreed = await expectPageAgreesWithApi(p);
    expect(agreed.feed.items.length).toBeGreaterThan(0);
    expect(await p.locator('.map').getAttribute('data-offline')).toBe('true');
    const render = await p.evaluate(() => performance.getEntriesByName('map-first-render')[0]?.duration ?? -1);
    timings.push(`first map render (navigation to first markers, 2,000 demo listings) ${Math.round(render)} ms`);
    expect(render).toBeGreaterThan(0);
    // The offline land is drawn after the markers; the picture waits for it.
    await p.locator('.map[data-land="true"]').waitFor({ timeout: 30_000 });
    await screenshot(p, 'map-and-feed', { readme: true });
  });

  it('finds a district by name in two languages, the feed, count and markers as the API answers', async () => {
    const p = await open('/?lang=en');
    await p.locator('.map .cluster, .map .pin').first().waitFor({ timeout: 30_000 });
    await searchPlace(p, 'Kata');
    expect(new URL(p.url()).searchParams.get('q')).toBe('Kata');
    const en = await expectPageAgreesWithApi(p);
    const enArea = api.last('/v1/search/map').searchParams.get('bbox');
    expect(en.count).toBeGreaterThan(0);
    // At district zoom the markers are points, more than the map answer holds: "N more".
    expect(en.map.truncated).toBe(true);
    await p.locator('.map-more').waitFor();
    const places = () => p.locator('.feed .card-place').allInnerTexts();
    expect((await places()).some((text) => text.includes('Kata'))).toBe(true);
    await screenshot(p, 'search-kata-en');

    const ru = await open('/?lang=ru');
    await ru.locator('.map .cluster, .map .pin').first().waitFor({ timeout: 30_000 });
    await searchPlace(ru, 'Ката');
    expect(new URL(ru.url()).searchParams.get('q')).toBe('Ката');
    const inRussian = await expectPageAgreesWithApi(ru);
    // Shown in the interface language: the place names of the cards in Russian.
    expect((await ru.locator('.feed .card-place').allInnerTexts()).some((text) => text.includes('Ката'))).toBe(true);
    // The same district in either language: the map goes to the same place and searches the same area.
    expect(api.last('/v1/search/map').searchParams.get('bbox')).toBe(enArea);
    expect(inRussian.count).toBeGreaterThan(0);
    await ru.locator('.map[data-land="true"]').waitFor({ timeout: 30_000 });
    await screenshot(ru, 'search-kata-ru', { readme: true });
  });

  it('applies filters from the panel into the URL, pages the feed, and reopens the same view from the link', async () => {
    const p = await open('/?lang=en&kind=stay');
    await p.locator('.map .cluster, .map .pin').first().waitFor({ timeout: 30_000 });
    await p.getByRole('button', { name: 'Filters' }).click();
    await p.waitForURL((u) => u.searchParams.get('filters') === 'open');
    await p.locator('input[name="bedrooms_min"]').fill('2');
    await p.locator('input[name="bedrooms_min"]').press('Enter');
    await p.locator('input[name="bedrooms_min"]').blur();
    await p.waitForURL((u) => u.searchParams.get('bedrooms_min') === '2');
    // The property types offered are the ones the catalog uses (GET /v1/search/filter-values).
    const values = await get(new URL(`${t.url}/v1/search/filter-values?kind=stay`));
    await poll(() => p.locator('input[name="property_type"]').count()).toBe(values.property_type.length);
    await p.locator('input[name="pets_allowed"]').check();
    await p.waitForURL((u) => u.searchParams.get('pets_allowed') === 'true');
    // The price handle: position p on the 24-segment quadratic scale is max_minor · p², on the
    // scale of the kind's most common price unit (a stay's night).
    const range = (await get(new URL(`${t.url}/v1/search/price-range?kind=stay`))).units[0];
    const handle = p.locator('input[name="price_max"]');
    await handle.focus();
    for (let i = 0; i < 60; i++) await handle.press('ArrowLeft');
    await handle.dispatchEvent('change');
    await p.waitForURL((u) => u.searchParams.has('price_max'));
    const value = Number(await handle.inputValue());
    expect(Number(new URL(p.url()).searchParams.get('price_max'))).toBe(
      Math.round(range.max_minor * (value / 240) ** 2),
    );
    const first = await expectPageAgreesWithApi(p);
    const listed = new URL(api.last('/v1/search/listings'));
    expect(listed.searchParams.get('bedrooms_min')).toBe('2');
    expect(listed.searchParams.get('pets_allowed')).toBe('true');
    expect(first.feed.has_more).toBe(true);

    // The next page, by the cursor, when the end of the feed is reached.
    await p.locator('.feed .more').scrollIntoViewIfNeeded();
    await poll(() => p.locator('.feed .card').count(), { timeout: 15_000 }).toBeGreaterThan(first.feed.items.length);
    await api.settled();
    const second = await get(api.last('/v1/search/listings', { withCursor: true }));
    const ids = await p
      .locator('.feed .card')
      .evaluateAll((cards) => cards.map((c) => Number(c.getAttribute('data-id'))));
    expect(ids).toEqual([...first.feed.items, ...second.items].map((i: { id: number }) => i.id));
    await screenshot(p, 'filters-and-paging');

    // The link reopens the same view: same request, same answers.
    const link = p.url();
    const again = await open(new URL(link).pathname + new URL(link).search);
    await again.locator('.map .cluster, .map .pin').first().waitFor({ timeout: 30_000 });
    const reopened = await expectPageAgreesWithApi(again);
    expect(reopened.count).toBe(first.count);
    expect(await again.locator('.filters input[name="pets_allowed"]').isChecked()).toBe(true);
  });

  it('keeps a number being typed in the filters when an answer re-renders the panel before it is committed', async () => {
    const p = await open('/?lang=en&kind=stay');
    await p.locator('.map .cluster, .map .pin').first().waitFor({ timeout: 30_000 });
    // The panel's amenities answer is held until the digits are typed, then let through.
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    await p.route(
      (url) => url.pathname === '/v1/amenities',
      async (route) => {
        await held;
        await route.continue().catch(() => undefined);
      },
    );
    await p.getByRole('button', { name: 'Filters' }).click();
    await p.waitForURL((u) => u.searchParams.get('filters') === 'open');
    await p.locator('input[name="bedrooms_min"]').fill('3');
    const answered = p.waitForResponse((r) => new URL(r.url()).pathname === '/v1/amenities');
    release();
    await answered;
    // The amenities are on the page: the panel has re-rendered with the digits still uncommitted.
    await p.locator('input[name="amenities"]').first().waitFor();
    await expect.poll(() => p.locator('input[name="bedrooms_min"]').inputValue()).toBe('3');
    await p.locator('input[name="bedrooms_min"]').press('Enter');
    await p.waitForURL((u) => u.searchParams.get('bedrooms_min') === '3');
  });

  it('on a phone-sized screen, searches once for the view and stays quiet', async () => {
    // The map's area must not depend on the feed's content, or every answer would move it again.
    const p = await open('/?lang=th&kind=stay', { width: 390, height: 844 });
    await p.locator('.feed .card').first().waitFor();
    await api.settled(1500);
    const feeds = api.answered.filter((a) => a.url.pathname === '/v1/search/listings');
    expect(feeds.length).toBeLessThanOrEqual(2);
    // The list is shown: no map is drawn, none of its markers asked for.
    await expectPageAgreesWithApi(p, undefined, { map: false });
    expect(api.answered.filter((a) => a.url.pathname === '/v1/search/map')).toEqual([]);
    await screenshot(p, 'phone');

    // The map in its place: the same area, so the feed is not asked again.
    await p.getByRole('button', { name: 'แสดงแผนที่' }).click();
    await p.locator('.map .cluster, .map .pin').first().waitFor({ timeout: 30_000 });
    await api.settled(1500);
    expect(api.answered.filter((a) => a.url.pathname === '/v1/search/listings')).toHaveLength(feeds.length);
    await expectPageAgreesWithApi(p);
  });

  it('never lets a slow answer for an older search overwrite the newer one', async () => {
    const p = await open('/?lang=en');
    await p.locator('.map .cluster, .map .pin').first().waitFor({ timeout: 30_000 });
    await api.settled();
    // Answers for "Patong" are held back until those for "Kata", typed right after it, have arrived.
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const held: Array<Promise<void>> = [];
    await p.route(
      (url) => url.pathname.startsWith('/v1/search/') && url.searchParams.get('q') === 'Patong',
      (route) => {
        const passed = released.then(() => route.continue().catch(() => undefined)); // the page may have given up on it
        held.push(passed);
        return passed;
      },
    );
    await p.locator('#q').fill('Patong');
    await p.locator('#q').press('Enter');
    await p.waitForURL((u) => u.searchParams.get('q') === 'Patong');
    await p.locator('#q').fill('Kata');
    // Should it fail, this says whether the text was lost or the Enter was.
    await expect
      .poll(() => p.locator('#q').inputValue(), { message: 'the search box holds what was typed' })
      .toBe('Kata');
    await p.locator('#q').press('Enter');
    await expect
      .poll(() => new URL(p.url()).searchParams.get('q'), {
        message: 'the URL takes the text searched',
        timeout: 30_000,
      })
      .toBe('Kata');
    await eventually('the feed for "Kata" to be answered', () =>
      api.answered.some((a) => a.url.pathname === '/v1/search/listings' && a.url.searchParams.get('q') === 'Kata'),
    );
    expect(held.length).toBeGreaterThan(0);
    release();
    await Promise.all(held);
    await api.settled();
    const agreed = await expectPageAgreesWithApi(p);
    expect(api.last('/v1/search/listings').searchParams.get('q')).toBe('Kata');
    expect(agreed.feed.items.length).toBeGreaterThan(0);
  });

  it('says which words of the text no listing has, and sets the related listings apart', async () => {
    const p = await open('/?lang=en&q=Kata%20purple%20villa');
    await p.locator('.feed .card').first().waitFor();
    await api.settled();
    const feed = await get(api.last('/v1/search/listings'));
    // What the demo catalog answers: "purple" is in no listing; few villas in Kata, then related ones.
    expect(feed.unmatched_terms).toEqual(['purple']);
    const firstRelated = feed.items.findIndex((i: { related?: boolean }) => i.related);
    expect(firstRelated).toBeGreaterThan(0);
    expect(await p.locator('.feed .showing-for').innerText()).toBe(
      'Showing results for “Kata villa”: no listing has “purple”.',
    );
    const shown = await p
      .locator('.feed .cards > li')
      .evaluateAll((els) =>
        els.map((li) =>
          li.classList.contains('related-divider')
            ? li.textContent
            : Number(li.querySelector('.card')?.getAttribute('data-id')),
        ),
      );
    const ids = feed.items.map((i: { id: number }) => i.id);
    expect(shown).toEqual([...ids.slice(0, firstRelated), 'Related to your search', ...ids.slice(firstRelated)]);
    await screenshot(p, 'search-related');

    // Every word matched: no such line.
    const all = await open('/?lang=en&q=Kata%20villa');
    await all.locator('.feed .card').first().waitFor();
    await api.settled();
    expect((await get(api.last('/v1/search/listings'))).unmatched_terms).toEqual([]);
    expect(await all.locator('.feed .showing-for').count()).toBe(0);
  });

  it('shows prices converted to the chosen currency, marked approximate', async () => {
    const p = await open('/?lang=en&currency=USD');
    await p.locator('.feed .card').first().waitFor();
    await api.settled();
    const feed = await get(api.last('/v1/search/listings'));
    const other = feed.items.findIndex((i: { currency: string }) => i.currency !== 'USD');
    expect(other).toBeGreaterThanOrEqual(0);
    const price = await p.locator('.feed .card').nth(other).locator('.card-price').innerText();
    // Marked approximate once: "≈", the word itself in the title.
    expect(price).toMatch(/^≈ \$/);
    expect(price).not.toContain('approx');
  });

  it('switches the interface language: every string from the dictionary, fetched again only when it changed', async () => {
    const p = await open('/?lang=en');
    await p.locator('.map .cluster, .map .pin').first().waitFor({ timeout: 30_000 });
    await p.locator('.map .place-label').first().waitFor();
    const english = new Set(
      (await get(new URL(`${t.url}/v1/places?lang=en`))).map((pl: { name: string }) => pl.name as string),
    );
    expect((await p.locator('.map .place-label').allTextContents()).every((name) => english.has(name))).toBe(true);
    await p.getByRole('combobox', { name: 'Language' }).selectOption('th');
    await p.waitForURL((u) => u.searchParams.get('lang') === 'th');
    const th = await get(new URL(`${t.url}/v1/i18n?lang=th`));
    await poll(() => p.locator('html').getAttribute('lang')).toBe('th');
    await api.settled();
    const count = await get(api.last('/v1/search/count'));
    await poll(() => p.locator('.toolbar .show-results').innerText()).toBe(
      th.strings['search.show_results'].replace('{count}', String(count.count)),
    );
    expect(await p.getByRole('link', { name: th.strings['nav.events'] }).count()).toBe(1);

    // At once, without moving the map: the cards as the API words them in Thai, the map's place
    // names and its buttons in Thai.
    const inThai = api.last('/v1/search/listings');
    inThai.searchParams.set('lang', 'th');
    const feed = await get(inThai);
    const cards = () =>
      p.locator('.feed .card').evaluateAll((els) =>
        els.map((e) => ({
          title: e.querySelector('.card-title')?.textContent,
          place: e.querySelector('.card-place')?.textContent,
        })),
      );
    await poll(cards).toEqual(
      feed.items.map((i: { kind: string; title: string; place: { name: string } }) => ({
        title: i.title,
        place: `${th.strings[`kind.${i.kind}`]} · ${i.place.name}`,
      })),
    );
    const thaiPlaces = new Set(
      (await get(new URL(`${t.url}/v1/places?lang=th`))).map((pl: { name: string }) => pl.name as string),
    );
    const labels = () => p.locator('.map .place-label').allTextContents();
    await poll(async () => (await labels()).length).toBeGreaterThan(0);
    await poll(async () => (await labels()).every((name) => thaiPlaces.has(name))).toBe(true);
    expect(await p.locator('.maplibregl-ctrl-zoom-in').getAttribute('title')).toBe(th.strings['web.map.zoom_in']);
    await screenshot(p, 'language-th');

    // A reload sends the version it holds; the API answers 304 and the page keeps its dictionary.
    await p.reload();
    await api.settled();
    const i18n = api.answered.filter((a) => a.url.pathname === '/v1/i18n' && a.url.searchParams.get('lang') === 'th');
    expect(i18n.at(-1)?.url.searchParams.get('version')).toBe(th.version);
    expect(i18n.at(-1)?.status).toBe(304);
    await poll(() => p.locator('.top a.session[href^="/sign-in"]').innerText()).toBe(th.strings['nav.sign_in']);
  });

  it('signs in, favorites a listing and shows the heart in the feed after a reload; signs out', async () => {
    const p = await open('/?lang=en');
    await p.locator('.feed .card').first().waitFor();
    await p.getByRole('link', { name: 'Sign in' }).click();
    await p.locator('input[name="email"]').fill(DEMO_ACCOUNT.email);
    await p.locator('input[name="password"]').fill(DEMO_ACCOUNT.password);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.getByRole('button', { name: 'Sign out' }).waitFor();
    await p.locator('.feed .card').first().waitFor();
    await api.settled();
    const card = p.locator('.feed .card').first();
    const id = Number(await card.getAttribute('data-id'));
    await card.getByRole('button', { name: 'Add to favorites' }).click();
    await poll(() => card.locator('.heart').getAttribute('aria-pressed')).toBe('true');

    const login = await http(t.url, 'POST', '/v1/auth/login', {
      body: { email: DEMO_ACCOUNT.email, password: DEMO_ACCOUNT.password },
    });
    const favorites = await http(t.url, 'GET', '/v1/me/favorites', { token: login.body.access_token });
    expect(favorites.body.items.map((f: { listing_id: number }) => f.listing_id)).toContain(id);

    await p.reload();
    const again = p.locator(`.feed .card[data-id="${id}"] .heart`);
    await poll(() => again.getAttribute('aria-pressed'), { timeout: 15_000 }).toBe('true');
    await api.settled();
    await expectPageAgreesWithApi(p, login.body.access_token);
    await screenshot(p, 'favorite-heart');

    await p.getByRole('button', { name: 'Sign out' }).click();
    await p.getByRole('link', { name: 'Sign in' }).waitFor();
    await poll(() => again.getAttribute('aria-pressed')).toBe('false');
  });
});

describe('errors and states', { timeout: 90_000 }, () => {
  it('marks dates in the wrong order where they are, and the count does not hang', async () => {
    const p = await open('/?lang=en&kind=stay&filters=open');
    await p.locator('.feed .card').first().waitFor();
    await p.locator('input[name="date_from"]').fill('2026-12-10');
    await p.waitForURL((u) => u.searchParams.get('date_from') === '2026-12-10');
    await p.locator('input[name="date_to"]').fill('2026-12-05');
    await p.waitForURL((u) => u.searchParams.get('date_to') === '2026-12-05');
    for (const name of ['date_from', 'date_to'])
      await poll(() => p.locator(`input[name="${name}"]`).getAttribute('aria-invalid')).toBe('true');
    expect(await p.locator('#dates-error').innerText()).toBe('The end date must be after the start date.');
    expect(await p.locator('input[name="date_to"]').getAttribute('aria-describedby')).toBe('dates-error');
    // The API refused it too: the feed says so and leads to the filters, with no old cards as its answer.
    await poll(() => p.locator('.feed .error').innerText()).toBe('Check the highlighted fields.');
    expect(await p.locator('.feed .card').count()).toBe(0);
    expect(await p.locator('.feed .retry').count()).toBe(0);
    await poll(() => p.locator('.filters .show-results').innerText()).toBe('Show results: –');
    await screenshot(p, 'error-dates');

    await p.locator('input[name="date_to"]').fill('2026-12-15');
    await p.waitForURL((u) => u.searchParams.get('date_to') === '2026-12-15');
    await poll(() => p.locator('input[name="date_to"]').getAttribute('aria-invalid')).toBe('false');
    expect(await p.locator('#dates-error').count()).toBe(0);
    await p.locator('.feed .card').first().waitFor();
  });

  it('shows placeholders while the first cards load, and dims the old ones while the next view loads', async () => {
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    const p = await open('/?lang=en');
    await p.route(
      (url) => url.pathname === '/v1/search/listings',
      async (route) => {
        await held;
        await route.continue().catch(() => undefined);
      },
    );
    await p.goto(`${t.url}/?lang=en&kind=food`);
    await p.locator('.feed .skeletons .card').first().waitFor();
    expect(await p.locator('.feed [role="status"]').innerText()).toBe('Loading…');
    expect(await p.locator('.feed').getAttribute('aria-busy')).toBe('true');
    await screenshot(p, 'loading-placeholders');
    release();
    await p.locator('.feed .cards:not(.skeletons) .card').first().waitFor();
    expect(await p.locator('.feed .skeletons').count()).toBe(0);

    // The next view is held: the cards shown are the last view's, marked as such.
    let releaseNext: () => void = () => undefined;
    const heldNext = new Promise<void>((r) => (releaseNext = r));
    await p.unroute((url) => url.pathname === '/v1/search/listings');
    await p.route(
      (url) => url.pathname === '/v1/search/listings',
      async (route) => {
        await heldNext;
        await route.continue().catch(() => undefined);
      },
    );
    await p.getByRole('button', { name: 'Stays' }).click();
    await p.locator('.feed .cards.stale').waitFor();
    releaseNext();
    await poll(() => p.locator('.feed .cards.stale').count()).toBe(0);
    await expectPageAgreesWithApi(p);
  });

  it('on a lost connection shows no stale cards but the error and a retry, which brings them back', async () => {
    const p = await open('/?lang=en');
    await p.locator('.feed .card').first().waitFor();
    await api.settled();
    const offline = (url: URL) => url.pathname.startsWith('/v1/search/');
    await p.route(offline, (route) => route.abort('internetdisconnected'));
    await p.getByRole('button', { name: 'Experiences' }).click();
    await p.waitForURL((u) => u.searchParams.get('kind') === 'experience');
    await poll(() => p.locator('.feed .error').innerText()).toBe('No connection. Check your internet.');
    expect(await p.locator('.feed .card').count()).toBe(0);
    expect(await p.locator('.map .cluster, .map .pin').count()).toBe(0);
    await poll(() => p.locator('.toolbar .show-results').innerText()).toBe('Show results: –');
    await screenshot(p, 'error-offline');

    await p.unroute(offline);
    await p.locator('.feed .retry').click();
    await p.locator('.feed .card').first().waitFor();
    expect(await p.locator('.feed .error').count()).toBe(0);
    const agreed = await expectPageAgreesWithApi(p);
    expect(api.last('/v1/search/listings').searchParams.get('kind')).toBe('experience');
    expect(agreed.feed.items.length).toBeGreaterThan(0);
  });

  it("answers an unknown address with the page's own not-found screen", async () => {
    const p = await open('/?lang=en');
    const res = await p.goto(`${t.url}/no-such-page?lang=en`);
    expect(res?.status()).toBe(404);
    expect(await p.locator('.not-found h1').innerText()).toBe('Page not found');
    expect(await p.title()).toBe('Page not found · Guest');
    await screenshot(p, 'not-found');
    await p.getByRole('link', { name: 'Go to the map' }).click();
    await p.waitForURL((u) => u.pathname === '/');
    await p.locator('.feed .card').first().waitFor();
  });
});

describe('events', { timeout: 60_000 }, () => {
  it('marks today in the chosen time zone', async () => {
    // Kiritimati is UTC+14, Pago Pago UTC-11: for most of the day their dates differ.
    for (const zone of ['Pacific/Kiritimati', 'Pacific/Pago_Pago']) {
      const p = await open(`/events?lang=en&timezone=${encodeURIComponent(zone)}`);
      await p.locator('.calendar .day').first().waitFor();
      await api.settled();
      const asked = api.last('/v1/events/calendar');
      expect(asked.searchParams.get('timezone')).toBe(zone);
      const cal = await get(asked);
      expect(cal.timezone).toBe(zone);
      expect(await p.locator('.calendar .day.today').getAttribute('data-date')).toBe(cal.today);
      expect(await p.getByRole('combobox', { name: 'Time zone' }).inputValue()).toBe(zone);
    }
  });

  it('shows the calendar strip with today marked, the upcoming list, a day and an event page', async () => {
    const p = await open('/events?lang=en&timezone=Asia%2FBangkok');
    await p.locator('.calendar .day').first().waitFor();
    await api.settled();
    const cal = await get(api.last('/v1/events/calendar'));
    const days = await p
      .locator('.calendar .day')
      .evaluateAll((els) =>
        els.map((e) => ({ date: e.getAttribute('data-date'), count: Number(e.getAttribute('data-count')) })),
      );
    expect(days).toEqual(cal.days.map((d: { date: string; count: number }) => ({ date: d.date, count: d.count })));
    expect(await p.locator('.calendar .day.today').getAttribute('data-date')).toBe(cal.today);
    const upcoming = await get(api.last('/v1/events/upcoming'));
    const slugs = () =>
      p.locator('.event-list .card').evaluateAll((els) => els.map((e) => e.getAttribute('data-slug')));
    expect(await slugs()).toEqual(upcoming.items.map((e: { slug: string }) => e.slug));
    await screenshot(p, 'events', { readme: true });

    // The next page of upcoming events, by the cursor.
    expect(upcoming.has_more).toBe(true);
    await p.locator('.event-list .more').click();
    await poll(async () => (await slugs()).length).toBeGreaterThan(upcoming.items.length);
    await api.settled();
    const next = await get(api.last('/v1/events/upcoming', { withCursor: true }));
    expect(await slugs()).toEqual([...upcoming.items, ...next.items].map((e: { slug: string }) => e.slug));

    const busy = cal.days.find((d: { count: number }) => d.count > 0);
    // The page asks for the day only after it has rendered the new URL: waiting for quiet alone
    // could end before that request starts (the page had been quiet since the last page of events).
    const dayAsked = p.waitForResponse((r) => {
      const u = new URL(r.url());
      return u.pathname === '/v1/events/feed' && u.searchParams.get('day') === busy.date;
    });
    await p.locator(`.calendar .day[data-date="${busy.date}"]`).click();
    await p.waitForURL((u) => u.searchParams.get('day') === busy.date);
    await dayAsked;
    await api.settled();
    const feed = await get(api.last('/v1/events/feed'));
    const onDay = await p.locator('.event-list .card').count();
    expect(onDay).toBe(feed.items.flatMap((d: { events: unknown[] }) => d.events).length);

    const first = p.locator('.event-list .card a').first();
    const title = await first.innerText();
    await first.click();
    await p.locator('.event-page h1').waitFor();
    expect(await p.locator('.event-page h1').innerText()).toBe(title);
  });
});

describe('accessibility', { timeout: 90_000 }, () => {
  const axeSource = () => readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  it('has no critical axe-core violations on the main screens', async () => {
    const source = await axeSource();
    const report: string[] = [];
    for (const [path, ready] of [
      ['/?lang=en', '.feed .card'],
      ['/?lang=en&kind=stay&filters=open', '.filters'],
      ['/events?lang=en', '.calendar .day'],
      ['/sign-in?lang=en', 'input[name="email"]'],
    ] as const) {
      const p = await open(path);
      await p.locator(ready).first().waitFor({ timeout: 30_000 });
      await api.settled();
      await p.evaluate(source);
      const violations = await p.evaluate(async () => {
        const axe = (
          globalThis as unknown as {
            axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> };
          }
        ).axe;
        const result = await axe.run();
        return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
      });
      report.push(`${path}: ${violations.map((v) => `${v.id} (${v.impact}, ${v.nodes})`).join(', ') || 'none'}`);
      expect(
        violations.filter((v) => v.impact === 'critical'),
        path,
      ).toEqual([]);
    }
    console.log(`[web] axe-core violations by screen:\n  ${report.join('\n  ')}`);
  });
});

// Last: its failed sign-ins make every later sign-in from this address need the puzzle.
describe('sign-in after failed attempts', { timeout: 60_000 }, () => {
  it('shows the slider puzzle the server demands, and signs in with it solved', async () => {
    for (let i = 0; i < 2; i++) {
      const wrong = await http(t.url, 'POST', '/v1/auth/login', {
        body: { email: DEMO_ACCOUNT.email, password: 'not the password at all' },
      });
      expect(wrong.status, wrong.text).toBe(401);
    }
    const p = await open('/sign-in?lang=en');
    await p.locator('input[name="email"]').fill(DEMO_ACCOUNT.email);
    await p.locator('input[name="password"]').fill(DEMO_ACCOUNT.password);
    const challenge = p.waitForResponse((r) => r.url().endsWith('/v1/auth/captcha'));
    await p.getByRole('button', { name: 'Sign in' }).click();
    const { captcha_id } = (await (await challenge).json()) as { captcha_id: string };
    const slider = p.getByLabel('Position of the piece', { exact: true });
    await slider.waitFor();
    await screenshot(p, 'sign-in-captcha');
    expect(await p.getByRole('button', { name: 'Sign out' }).count()).toBe(0);

    // The test plays the person who sees the gap: the answer the server keeps, set by keyboard.
    const { x } = JSON.parse((await t.runtime.redis.get(`captcha:${captcha_id}`))!) as { x: number };
    await slider.focus();
    await p.keyboard.press('Home');
    for (let i = 0; i < x; i++) await p.keyboard.press('ArrowRight');
    const login = p.waitForResponse((r) => r.url().endsWith('/v1/auth/login'));
    await p.getByRole('button', { name: 'Sign in' }).click();
    const answered = await login;
    // A cookie session (spec 5.12): 204, the tokens only in HttpOnly cookies.
    expect(answered.status()).toBe(204);
    expect(answered.request().postDataJSON()).toMatchObject({
      captcha_id,
      captcha_answer: String(x),
      captcha_nonce: expect.stringMatching(/^\d+$/),
    });
    await p.getByRole('button', { name: 'Sign out' }).waitFor();
  });

  // Issue 32 point 2: the proof of work a script pays about 2 CPU-seconds for at the first level
  // runs in the page's Web Workers (one per core, WebCrypto's PBKDF2) from the moment the puzzle
  // arrives. Measured as the worst case for a person: the button pressed as soon as the puzzle
  // shows, so the whole proof of work stands between the puzzle and the request. A person sliding
  // the piece takes seconds of that away.
  it('a person waits under 2 s for the proof of work at the first level', { timeout: 120_000 }, async () => {
    const p = await open('/sign-in?lang=en');
    await p.locator('input[name="email"]').fill(DEMO_ACCOUNT.email);
    await p.locator('input[name="password"]').fill('not the password at all');
    let challenge = p.waitForResponse((r) => r.url().endsWith('/v1/auth/captcha'));
    await p.getByRole('button', { name: 'Sign in' }).click();
    const waits: number[] = [];
    const levels: number[] = [];
    for (let i = 0; i < 5; i++) {
      const arrived = await challenge;
      const shownAt = performance.now();
      levels.push(((await arrived.json()) as { pow: { level: number } }).pow.level);
      await p.getByLabel('Position of the piece', { exact: true }).waitFor();
      // The wrong offset (the piece was not moved) brings the next puzzle.
      if (i < 4) challenge = p.waitForResponse((r) => r.url().endsWith('/v1/auth/captcha'));
      const sent = p.waitForRequest((r) => r.url().endsWith('/v1/auth/login'));
      await p.getByRole('button', { name: 'Sign in' }).click();
      await sent;
      waits.push(performance.now() - shownAt);
    }
    const sorted = [...waits].sort((a, b) => a - b);
    const workers = await p.evaluate(() => navigator.hardwareConcurrency);
    // A phone has 4 cores or more: 2 s there is this much on the cores this browser has.
    const bound = 2000 * Math.max(1, 4 / workers);
    console.info(
      `issue 32 point 2, proof of work in Chromium (${workers} workers), levels ${levels.join(', ')}: ` +
        `waits ${sorted.map((w) => Math.round(w)).join(', ')} ms, median ${Math.round(sorted[2]!)} ms ` +
        `(bound for ${workers} cores: ${bound} ms)`,
    );
    expect(levels.every((l) => l === 1)).toBe(true);
    expect(sorted[2]).toBeLessThan(bound);
  });
});
