import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aliasName } from '@guest/catalog';
import { loadDemoCatalog } from '@guest/indexer';
import { readApi } from '@guest/read-api';
import { webClient } from '@guest/server/web';
import { writeApi } from '@guest/write-api';
import { DEMO_ACCOUNT, ensureDemoAccount } from '@guest/write-api/demo';
import { buildWeb } from '../../scripts/web-build.ts';
import { http } from '../support/http.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { launchChromium, screenshot, watchApi } from './web/browser.ts';

/**
 * The listing page in the web client (`/listings/:id`), in Debian's Chromium. On a phone a guest
 * goes from the search to a listing (a card), asks for it as a favorite, is sent to sign in and
 * comes back to the listing, where the favorite is then set; no screen is wider than 390 px; the
 * account's favorites show as the feed's cards, open their listing and leave with the heart. On
 * a desktop the page opens from a map pin and from a shared address (dates and all), and back
 * returns to the feed where it was left, every page loaded. Screenshots go to
 * test-results/browser/listing-*.png (the README's with WEB_SCREENSHOTS_DIR=docs/screenshots).
 */
let t: TestApp;
let browser: Browser;

beforeAll(async () => {
  buildWeb({ ifStale: true, quiet: true });
  // One favorite a page: the favorites screen pages on the cursor with two.
  t = await startTestApp({ apps: [writeApi, readApi, webClient], config: { FAVORITES_LIMIT_DEFAULT: 1 } });
  await loadDemoCatalog(t.runtime, { listings: 400, events: 0, progress: false });
  await ensureDemoAccount(t.runtime.database.db, t.config, t.runtime.clock.now());
  browser = await launchChromium();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

async function open(
  viewport: { width: number; height: number },
  phone: boolean,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport,
    deviceScaleFactor: phone ? 2 : 1,
    isMobile: phone,
    hasTouch: phone,
    locale: 'en-US',
  });
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error(`[page] ${err.message}`));
  return { context, page };
}

/** How wide the document is: more than the phone's width means it scrolls sideways. */
const documentWidth = (page: Page): Promise<number> =>
  page.evaluate('Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)');

/** The gallery's photo drawn (the demo's pictures are made on their first request), or the listing has none. */
async function photoShown(page: Page): Promise<void> {
  await page.locator('.listing-page .gallery figure img, .listing-page .gallery-none').first().waitFor();
  // Evaluated over the DevTools protocol: the page's CSP allows no script of the test's own.
  const drawn = `(() => { const img = document.querySelector('.listing-page .gallery figure img'); return !img || (img.complete && img.naturalWidth > 0); })()`;
  await expect.poll(() => page.evaluate(drawn), { timeout: 30_000 }).toBe(true);
}

const listingIdOf = (page: Page) => Number(/\/listings\/(\d+)/.exec(page.url())?.[1]);

describe('the listing page', { timeout: 240_000 }, () => {
  it('on a phone: search → listing (a card) → favorite asks to sign in → signed in, back on it, favorite set; nothing wider than 390 px', async () => {
    const { context, page } = await open({ width: 390, height: 844 }, true);
    const widths: Record<string, number> = {};
    const shot = async (name: string, readme = false) => {
      widths[name] = await documentWidth(page);
      await screenshot(page, name, { readme, scale: 'css' });
    };
    try {
      await page.goto(`${t.url}/?lang=en`);
      await page.locator('.feed .card img').first().waitFor();
      await shot('listing-phone-search');

      const first = page.locator('.feed .card').first();
      const title = (await first.locator('.card-title').innerText()).trim();
      await first.locator('.card-title a').click();
      await page.waitForURL((u) => u.pathname.startsWith('/listings/'));
      await expect.poll(() => page.locator('.listing-page h1').innerText()).toBe(title);
      const id = listingIdOf(page);
      await photoShown(page);
      await page.locator('.listing-page .calendar-day:not([disabled])').first().waitFor();
      await shot('listing-phone', true);

      // The dates of a stay: their total comes from the API.
      const from = await page.locator('input[name="date_from"]').getAttribute('min');
      const day = (n: number) => new Date(Date.parse(`${from}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
      await page.locator('input[name="date_from"]').fill(day(3));
      await page.locator('input[name="date_to"]').fill(day(5));
      await page.locator('.stay-answer .stay-total').waitFor();
      expect(new URL(page.url()).searchParams.get('date_from')).toBe(day(3));
      await shot('listing-phone-dates');

      // The heart, signed out, asks to sign in and comes back here.
      await page.getByRole('button', { name: 'Add to favorites' }).click();
      await page.waitForURL((u) => u.pathname === '/sign-in');
      await page.locator('input[name="email"]').waitFor();
      await shot('listing-phone-sign-in');
      await page.locator('input[name="email"]').fill(DEMO_ACCOUNT.email);
      await page.locator('input[name="password"]').fill(DEMO_ACCOUNT.password);
      await page.locator('form button[type="submit"]').click();
      await page.waitForURL((u) => u.pathname === `/listings/${id}`);
      await page.locator('.listing-page h1').waitFor();
      await page.getByRole('button', { name: 'Add to favorites' }).click();
      await page.getByRole('button', { name: 'Remove from favorites' }).waitFor();

      // The favorite is the account's: the page read again says so, and so does the API.
      await page.reload();
      await page.locator('.listing-page .heart[aria-pressed="true"]').waitFor();
      await shot('listing-phone-favorite');
      const login = await http(t.url, 'POST', '/v1/auth/login', {
        body: { email: DEMO_ACCOUNT.email, password: DEMO_ACCOUNT.password },
      });
      const favorites = await http(t.url, 'GET', '/v1/me/favorites?limit=100', { token: login.body.access_token });
      expect(favorites.body.items.map((f: { listing_id: number }) => f.listing_id)).toContain(id);

      for (const [screen, width] of Object.entries(widths)) {
        expect.soft(width, `${screen} is wider than the phone`).toBeLessThanOrEqual(390);
      }
    } finally {
      await context.close();
    }
  });

  it('on a desktop: back from a listing returns to the feed where it was, every page loaded', async () => {
    const { context, page } = await open({ width: 1280, height: 800 }, false);
    const requests = watchApi(page);
    try {
      await page.goto(`${t.url}/?lang=en`);
      await page.locator('.feed .card').first().waitFor();
      // Two more pages, then scrolled down the feed.
      for (let n = 1; n <= 2; n++) {
        await page.locator('.feed .more').click();
        await expect
          .poll(() => page.locator('.feed .card').count(), { timeout: 30_000 })
          .toBeGreaterThanOrEqual(20 * (n + 1));
      }
      const target = page.locator('.feed .card').nth(45);
      await target.scrollIntoViewIfNeeded();
      // The end of the list may come into view and load a page by itself: counted once it is in.
      await requests.settled();
      const cards = await page.locator('.feed .card').count();
      const top = await page.locator('.feed').evaluate((el) => el.scrollTop);
      expect(top).toBeGreaterThan(1000);
      const id = Number(await target.getAttribute('data-id'));
      await target.locator('.card-title a').click();
      await page.waitForURL((u) => u.pathname === `/listings/${id}`);
      await page.locator('.listing-page h1').waitFor();

      await page.getByRole('button', { name: /Back/ }).click();
      await page.waitForURL((u) => u.pathname === '/');
      await page.locator(`.feed .card[data-id="${id}"]`).waitFor();
      expect(await page.locator('.feed .card').count()).toBe(cards);
      await expect.poll(() => page.locator('.feed').evaluate((el) => el.scrollTop)).toBe(top);
      // The browser's own back does the same.
      await page.locator(`.feed .card[data-id="${id}"] .card-title a`).click();
      await page.locator('.listing-page h1').waitFor();
      await page.goBack();
      await page.locator(`.feed .card[data-id="${id}"]`).waitFor();
      await expect.poll(() => page.locator('.feed').evaluate((el) => el.scrollTop)).toBe(top);
    } finally {
      await context.close();
    }
  });

  it("on a desktop: a map pin's card opens the listing; its address, shared, opens the same stay for anyone", async () => {
    const { context, page } = await open({ width: 1280, height: 800 }, false);
    try {
      const feed = await http(t.url, 'GET', '/v1/search/listings?limit=20&kind=stay');
      const located = feed.body.items.find((c: { point: unknown }) => c.point);
      await page.goto(`${t.url}/?lang=en&kind=stay&map=16/${located.point.lat}/${located.point.lon}`);
      const pin = page.locator('.map .pin').first();
      await pin.waitFor({ timeout: 60_000 });
      await pin.click();
      // The pin's small card over the map links to the listing's page.
      await page.locator('.map-card a').first().click();
      await page.waitForURL((u) => u.pathname.startsWith('/listings/'));
      await page.locator('.listing-page h1').waitFor();
      await page.locator('.listing-map .map .pin').waitFor({ timeout: 60_000 });
      const from = await page.locator('input[name="date_from"]').getAttribute('min');
      const day = (n: number) => new Date(Date.parse(`${from}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
      await page.locator('input[name="date_from"]').fill(day(10));
      await page.locator('input[name="date_to"]').fill(day(13));
      const priced = page.waitForResponse(
        (r) =>
          r.url().includes('/v1/listings/') && r.url().includes('guests=2') && r.url().includes(`date_to=${day(13)}`),
      );
      await page.locator('input[name="guests"]').fill('2');
      expect((await priced).status()).toBe(200);
      await page.locator('.stay-answer .stay-total').waitFor();
      const total = (await page.locator('.stay-answer .stay-total').innerText()).trim();
      await photoShown(page);
      await screenshot(page, 'listing-desktop', { readme: true, scale: 'css' });
      const shared = page.url();
      const title = await page.locator('.listing-page h1').innerText();

      const other = await open({ width: 1280, height: 800 }, false);
      try {
        await other.page.goto(shared);
        await expect.poll(() => other.page.locator('.listing-page h1').innerText()).toBe(title);
        await expect.poll(() => other.page.locator('.stay-answer .stay-total').innerText()).toBe(total);
        expect(await other.page.locator('input[name="guests"]').inputValue()).toBe('2');
        expect(await other.page.locator('input[name="date_from"]').inputValue()).toBe(day(10));
      } finally {
        await other.context.close();
      }
    } finally {
      await context.close();
    }
  });

  it("on a phone: two favorites show as the feed's cards with the API's titles and prices; a card opens its listing, the heart removes it", async () => {
    const login = await http(t.url, 'POST', '/v1/auth/login', {
      body: { email: DEMO_ACCOUNT.email, password: DEMO_ACCOUNT.password },
    });
    const token = login.body.access_token as string;
    const saved = async () =>
      (
        (await http(t.url, 'GET', '/v1/me/favorites?limit=100', { token })).body.items as Array<{ listing_id: number }>
      ).map((f) => f.listing_id);
    // From no favorite, whatever the tests before left.
    for (const id of await saved()) await http(t.url, 'DELETE', `/v1/me/favorites/${id}`, { token });
    // Two listings priced in the base currency, so that the cards show the API's amount as it is.
    const feed = await http(t.url, 'GET', '/v1/search/listings?limit=50&lang=en');
    const picked = (feed.body.items as Array<{ id: number; currency: string }>)
      .filter((c) => c.currency === 'THB')
      .slice(0, 2)
      .map((c) => c.id);
    expect(picked).toHaveLength(2);
    const pages = await Promise.all(picked.map((id) => http(t.url, 'GET', `/v1/listings/${id}?lang=en`)));
    const thb = (minor: number) =>
      new Intl.NumberFormat('en', { style: 'currency', currency: 'THB', maximumFractionDigits: 0 }).format(minor / 100);
    const plain = (s: string) => s.replace(/\s+/g, ' ').trim();

    const { context, page } = await open({ width: 390, height: 844 }, true);
    try {
      await page.goto(`${t.url}/sign-in?lang=en`);
      await page.locator('input[name="email"]').fill(DEMO_ACCOUNT.email);
      await page.locator('input[name="password"]').fill(DEMO_ACCOUNT.password);
      await page.locator('form button[type="submit"]').click();
      await page.waitForURL((u) => u.pathname === '/');
      // Favorited on their pages, one after the other.
      for (const id of picked) {
        await page.goto(`${t.url}/listings/${id}?lang=en`);
        await page.getByRole('button', { name: 'Add to favorites' }).click();
        await page.getByRole('button', { name: 'Remove from favorites' }).waitFor();
      }
      expect(await saved()).toEqual([...picked].reverse());

      await page.goto(`${t.url}/account/favorites?lang=en`);
      const cards = page.locator('.favorites .card:not(.favorite-row)');
      // A page at a time (FAVORITES_LIMIT_DEFAULT is 1 here): the next one on the cursor.
      const allCards = async () => {
        await expect.poll(() => cards.count(), { timeout: 30_000 }).toBe(1);
        await page.getByRole('button', { name: 'Show more' }).click();
        await expect.poll(() => cards.count(), { timeout: 30_000 }).toBe(2);
        expect(await page.getByRole('button', { name: 'Show more' }).count()).toBe(0);
      };
      await allCards();
      // Newest first, each with its listing's title and price from `GET /v1/listings/{id}`.
      for (const [n, answer] of [...pages].reverse().entries()) {
        const card = cards.nth(n);
        expect(Number(await card.getAttribute('data-id'))).toBe(answer.body.id);
        expect(plain(await card.locator('.card-title').innerText())).toBe(plain(answer.body.title));
        expect(plain(await card.locator('.card-price span').first().innerText())).toBe(
          plain(thb(answer.body.price_minor)),
        );
        expect(await card.locator('.heart').getAttribute('aria-pressed')).toBe('true');
      }
      await expect.poll(() => page.locator('.favorites .card img').count()).toBe(2);
      // A phone's width: nothing scrolls sideways, the hearts are a finger's size.
      expect(await documentWidth(page)).toBeLessThanOrEqual(390);
      for (const box of await Promise.all((await cards.locator('.heart').all()).map((h) => h.boundingBox()))) {
        expect(Math.min(box!.width, box!.height)).toBeGreaterThanOrEqual(44);
      }
      await screenshot(page, 'favorites-phone', { scale: 'css' });

      // A card opens its listing's page.
      await cards.first().locator('.card-title a').click();
      await page.waitForURL((u) => u.pathname === `/listings/${picked[1]}`);
      await expect.poll(() => page.locator('.listing-page h1').innerText()).toBe(pages[1]!.body.title);
      await page.goBack();
      await allCards();

      // The heart un-favorites: the card leaves the screen and the account.
      await cards.first().getByRole('button', { name: 'Remove from favorites' }).click();
      await expect.poll(() => cards.count()).toBe(1);
      expect(await cards.first().getAttribute('data-id')).toBe(String(picked[0]));
      expect(await saved()).toEqual([picked[0]]);
      await page.reload();
      await expect.poll(() => cards.count(), { timeout: 30_000 }).toBe(1);
      expect(await page.locator('.favorites .favorite-row').count()).toBe(0);

      // A favorite whose listing page answers 404 (taken down between the list and its page; here
      // its document leaves the index alone) shows a row that says so, and its heart still removes it.
      const listings = aliasName(t.config.INDEX_PREFIX, 'listings');
      const query = { query: { term: { id: picked[0] } } };
      expect(await t.runtime.search.deleteByQuery(listings, query, { refresh: true })).toBe(1);
      expect((await http(t.url, 'GET', `/v1/listings/${picked[0]}`)).status).toBe(404);
      await page.reload();
      const gone = page.locator('.favorites .favorite-row.gone');
      await gone.waitFor({ timeout: 30_000 });
      expect(await cards.count()).toBe(0);
      expect(plain(await gone.locator('.card-title').innerText())).toBe(plain(pages[0]!.body.title));
      expect(await gone.innerText()).toContain('This listing is no longer available.');
      expect(await gone.locator('a').count()).toBe(0);
      expect(await documentWidth(page)).toBeLessThanOrEqual(390);
      await screenshot(page, 'favorites-phone-gone', { scale: 'css' });
      await gone.getByRole('button', { name: 'Remove from favorites' }).click();
      await gone.waitFor({ state: 'detached' });
      expect(await saved()).toEqual([]);
      await page.getByText('No favorites yet').waitFor();
    } finally {
      await context.close();
    }
  });
});
