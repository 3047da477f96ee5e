import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoCatalog } from '@guest/indexer';
import { readApi } from '@guest/read-api';
import { webClient } from '@guest/server/web';
import { writeApi } from '@guest/write-api';
import { DEMO_ACCOUNT, ensureDemoAccount } from '@guest/write-api/demo';
import { buildWeb } from '../../scripts/web-build.ts';
import { http } from '../support/http.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { launchChromium, screenshot, SHOTS } from './web/browser.ts';

/**
 * Issue 35 point 4: the web client on a phone. Every screen, signed out and signed in, at 390 and
 * 360 CSS pixels wide: nothing wider than the screen (the document does not scroll sideways, and
 * no control sticks out of it, unless it sits in a row made to scroll sideways), every control a
 * finger can hit (44 px), the header's items in its menu, the map and the list one at a time,
 * the filters a full-screen sheet. A screenshot of each screen at each width goes to
 * test-results/browser/phone-<screen>-<width>.png.
 */
const WIDTHS = [390, 360] as const;
const HEIGHT = 844;

let t: TestApp;
let browser: Browser;
let eventSlug = '';
let listingId = 0;
const report: string[] = [];

beforeAll(async () => {
  buildWeb({ ifStale: true, quiet: true });
  t = await startTestApp({ apps: [writeApi, readApi, webClient] });
  await loadDemoCatalog(t.runtime, { listings: 400, events: 30, progress: false });
  await ensureDemoAccount(t.runtime.database.db, t.config, t.runtime.clock.now());
  const upcoming = await http(t.url, 'GET', '/v1/events/upcoming?limit=1');
  eventSlug = upcoming.body.items[0].slug;
  // The demo account has a favorite, so that the favorites screen shows one.
  const login = await http(t.url, 'POST', '/v1/auth/login', {
    body: { email: DEMO_ACCOUNT.email, password: DEMO_ACCOUNT.password },
  });
  const feed = await http(t.url, 'GET', '/v1/search/listings?limit=1');
  listingId = feed.body.items[0].id;
  await http(t.url, 'PUT', `/v1/me/favorites/${listingId}`, { token: login.body.access_token });
  browser = await launchChromium();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
  if (report.length) console.log(`[phone] widest screens:\n  ${report.join('\n  ')}\n  screenshots in ${SHOTS}`);
});

async function phone(width: number): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width, height: HEIGHT },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'en-US',
  });
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error(`[page] ${err.message}`));
  return { context, page };
}

async function signIn(page: Page): Promise<void> {
  await page.goto(`${t.url}/sign-in?lang=en`);
  await page.locator('input[name="email"]').fill(DEMO_ACCOUNT.email);
  await page.locator('input[name="password"]').fill(DEMO_ACCOUNT.password);
  await page.locator('form button[type="submit"]').click();
  await page.waitForURL((u) => u.pathname === '/');
}

interface Layout {
  /** How far the document scrolls sideways. */
  overflow: number;
  /** Controls outside the screen, not in a row that scrolls sideways. */
  outside: string[];
  /** Controls smaller than 44 × 44 px. */
  small: string[];
}

/**
 * What sticks out of the screen, and which controls are too small for a finger; run in the page
 * (plain JavaScript: the tests are compiled without the DOM's types).
 */
function measure(page: Page, w: number): Promise<Layout> {
  // Against the phone's width, not innerWidth: a phone browser widens its layout viewport to
  // content wider than the screen (and zooms out), which would hide the overflow it measures.
  return page.evaluate(`((w) => {${MEASURE}})(${w})`);
}

const MEASURE = `
    const name = (el) => {
      const text = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 30);
      const cls = typeof el.className === 'string' && el.className ? '.' + el.className.split(' ')[0] : '';
      return el.tagName.toLowerCase() + cls + (el.name ? '[name=' + el.name + ']' : '') + ' "' + text + '"';
    };
    const visible = (el) => {
      const r = el.getBoundingClientRect();
      const s = getComputedStyle(el);
      return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && !el.closest('[hidden], [inert]');
    };
    const scrollsSideways = (el) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const s = getComputedStyle(p);
        if (/(auto|scroll)/.test(s.overflowX) && p.scrollWidth > p.clientWidth) return true;
      }
      return false;
    };
    const controls = [
      ...document.querySelectorAll('a[href], button, select, textarea, input:not([type=hidden]), [role=button]'),
    ]
      // Map markers and the map's own buttons are placed on the map, which may be larger than the screen.
      .filter(
        (el) =>
          visible(el) &&
          // The skip link waits off screen until it is focused.
          !el.matches('.skip:not(:focus)') &&
          !el.closest('.maplibregl-marker, .map-wrap .map > *:not(.maplibregl-control-container)'),
      );
    const outside = controls
      .filter((el) => {
        const r = el.getBoundingClientRect();
        return (r.right > w + 1 || r.left < -1) && !scrollsSideways(el);
      })
      .map(name);
    const small = controls
      .filter((el) => {
        // Links within a sentence are exempt (WCAG 2.5.8); checkboxes count by their label.
        if (el.tagName === 'A' && getComputedStyle(el).display === 'inline' && el.closest('p, li:not(nav li), small'))
          return false;
        const target =
          el.tagName === 'INPUT' && (el.type === 'checkbox' || el.type === 'radio')
            ? (el.closest('label, .acct-check') ?? el)
            : el;
        const r = target.getBoundingClientRect();
        return Math.round(r.height) < 44 || Math.round(r.width) < 44;
      })
      .map((el) => {
        const r = el.getBoundingClientRect();
        return name(el) + ' ' + Math.round(r.width) + '×' + Math.round(r.height);
      });
    return {
      overflow: Math.max(document.documentElement.scrollWidth, window.innerWidth) - w,
      outside,
      small,
    };
  `;

async function check(page: Page, screen: string, width: number): Promise<void> {
  const layout = await measure(page, width);
  await screenshot(page, `phone-${screen}-${width}`);
  report.push(
    `${screen} @${width}: overflow ${layout.overflow} px, ${layout.outside.length} controls outside, ${layout.small.length} under 44 px`,
  );
  // Soft: every screen is measured and reported, then the test fails with all that is wrong.
  expect.soft(layout.overflow, `${screen} at ${width}px scrolls sideways`).toBeLessThanOrEqual(0);
  expect.soft(layout.outside, `${screen} at ${width}px: controls outside the screen`).toEqual([]);
  expect.soft(layout.small, `${screen} at ${width}px: controls under 44 px`).toEqual([]);
}

const SIGNED_OUT: Array<[string, string, string]> = [
  ['list', '/?lang=en', '.feed .card'],
  ['map', '/?lang=en&view=map', '.map .cluster, .map .pin'],
  ['filters', '/?lang=en&kind=stay&filters=open', '.filters input[name="bedrooms_min"]'],
  ['events', '/events?lang=en', '.calendar .day'],
  // Measured once the venue map is drawn, with its buttons.
  ['event', '/events/SLUG?lang=en', '.event-page .venue-map[data-ready="true"]'],
  // Measured once its map is drawn, with its buttons (the calendar comes before it).
  ['listing', '/listings/ID?lang=en', '.listing-page .listing-map .maplibregl-ctrl-zoom-in'],
  ['sign-in', '/sign-in?lang=en', 'input[name="email"]'],
  ['sign-up', '/account/sign-up?lang=en', 'input[name="email"]'],
  ['not-found', '/no-such-page?lang=en', '.not-found h1'],
];
const SIGNED_IN: Array<[string, string, string]> = [
  ['account', '/account?lang=en', '.account h1'],
  ['profile', '/account/profile?lang=en', 'input[name="display_name"], form input'],
  ['password', '/account/password?lang=en', 'input[name="new_password"]'],
  ['sessions', '/account/sessions?lang=en', '.account li, .account table'],
  ['preferences', '/account/preferences?lang=en', '.account input[type="checkbox"]'],
  // Measured once the favorite shows as its listing's card.
  ['favorites', '/account/favorites?lang=en', '.favorites .card:not(.favorite-row)'],
  ['transactions', '/account/transactions?lang=en', '.account table tbody tr'],
  ['delete', '/account/delete?lang=en', '.account button'],
];

describe('the web client on a phone', { timeout: 240_000 }, () => {
  for (const width of WIDTHS) {
    it(`no screen is wider than ${width} px, every control is 44 px, signed out and in`, async () => {
      const { context, page } = await phone(width);
      try {
        for (const [screen, path, ready] of SIGNED_OUT) {
          await page.goto(`${t.url}${path.replace('SLUG', eventSlug).replace('ID', String(listingId))}`);
          const shown = await page
            .locator(ready)
            .first()
            .waitFor({ timeout: 30_000 })
            .then(() => true)
            .catch(() => false);
          expect.soft(shown, `${screen}: ${ready} shown`).toBe(true);
          await check(page, screen, width);
        }
        await signIn(page);
        for (const [screen, path, ready] of SIGNED_IN) {
          await page.goto(`${t.url}${path}`);
          const shown = await page
            .locator(ready)
            .first()
            .waitFor({ timeout: 30_000 })
            .then(() => true)
            .catch(() => false);
          expect.soft(shown, `${screen}: ${ready} shown`).toBe(true);
          await check(page, screen, width);
        }
      } finally {
        await context.close();
      }
    });
  }

  it('keeps the header in a menu, switches between list and map, opens the filters full screen', async () => {
    const { context, page } = await phone(390);
    try {
      await page.goto(`${t.url}/?lang=en`);
      // The list first, the whole height below the toolbar; no map drawn for it.
      await page.locator('.feed .card').first().waitFor();
      await page.locator('.feed .card img').first().waitFor();
      // CSS pixels: the README's picture stays small.
      await screenshot(page, 'phone-list', { readme: true, scale: 'css' });
      const feed = await page.locator('.feed').boundingBox();
      expect(feed!.height).toBeGreaterThan(HEIGHT * 0.6);
      expect(await page.locator('.map-wrap').isVisible()).toBe(false);

      // The header's navigation, language and sign-in are in its menu.
      const menu = page.getByRole('button', { name: 'Menu' });
      expect(await page.getByRole('link', { name: 'Sign in' }).isVisible()).toBe(false);
      await menu.click();
      await page.getByRole('link', { name: 'Sign in' }).waitFor();
      expect(await page.getByRole('combobox', { name: 'Language' }).isVisible()).toBe(true);
      await screenshot(page, 'phone-menu', { readme: true, scale: 'css' });
      await page.keyboard.press('Escape');
      await page.getByRole('link', { name: 'Sign in' }).waitFor({ state: 'hidden' });

      // The map, full height, in place of the list; the URL keeps the choice.
      await page.getByRole('button', { name: 'Show map' }).click();
      await page.waitForURL((u) => u.searchParams.get('view') === 'map');
      await page.locator('.map .cluster, .map .pin').first().waitFor({ timeout: 30_000 });
      expect(await page.locator('.feed').isVisible()).toBe(false);
      const map = await page.locator('.map-wrap').boundingBox();
      expect(map!.height).toBeGreaterThan(HEIGHT * 0.6);
      await page.locator('.map[data-land="true"] .place-label').first().waitFor({ timeout: 30_000 });
      await screenshot(page, 'phone-map', { readme: true, scale: 'css' });
      await page.getByRole('button', { name: 'Show list' }).click();
      await page.waitForURL((u) => !u.searchParams.has('view'));
      await page.locator('.feed .card').first().waitFor();

      // The filters cover the screen; "show N results" closes them.
      await page.getByRole('button', { name: /^Filters/ }).click();
      const sheet = await page.locator('.filters').boundingBox();
      expect(sheet).toMatchObject({ x: 0, y: 0, width: 390, height: HEIGHT });
      await page.locator('.filters .histogram').waitFor();
      await screenshot(page, 'phone-filters', { readme: true, scale: 'css' });
      await page.locator('.filters .show-results').click();
      await page.locator('.filters').waitFor({ state: 'detached' });
    } finally {
      await context.close();
    }
  });
});
