import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '@guest/config';
import type { MailboxMessage } from '@guest/mail';
import type { Runtime } from '@guest/runtime';
import { runAll } from '@guest/server/run-all';
import { seedDemoTransactions } from '@guest/write-api/demo';
import { buildWeb } from '../../scripts/web-build.ts';
import { eventually } from '../support/eventually.ts';
import { http } from '../support/http.ts';
import { createIsolatedEnv, type IsolatedEnv } from '../support/isolated-env.ts';
import { pngImage, readFixture } from '../write-api/profile/images.ts';
import { launchChromium, screenshot } from './web/browser.ts';

/**
 * The account screens of the web client (apps/web/src/account) in headless Chromium, against the
 * one-base-URL server with the socket gateway (`runAll`, as `npm run dev` runs it) in an
 * isolated environment: sign up through the captcha the server demands, confirm through the
 * development mailbox, sign in, upload an avatar, a badge update over the socket, sign out
 * elsewhere. Needs Debian's `chromium` (`apt-get install -y chromium`). Screenshots go to
 * test-results/browser/account-*.png.
 *
 * The server listens on a port chosen before it starts, so that the links in its mails (on the
 * address it listens on, APP_LINK_BASE_URL and PUBLIC_BASE_URL unset) are followed as they are.
 */
const PASSWORD = 'correct horse battery staple';

let env: IsolatedEnv;
let app: FastifyInstance;
let runtime: Runtime;
let base: string;
let browser: Browser;
const contexts: BrowserContext[] = [];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

beforeAll(async () => {
  buildWeb({ ifStale: true, quiet: true });
  const port = await freePort();
  env = await createIsolatedEnv({
    config: {
      // The second registration from the address (every request here is 127.0.0.1) needs the puzzle.
      CAPTCHA_AFTER_REGISTRATIONS_PER_ADDRESS: 1,
      RATE_LIMIT_LOGIN_PER_MIN: 1000,
      CAPTCHA_AFTER_FAILED_LOGINS_PER_ADDRESS: 1000,
      // Short-lived tokens: the page's socket is told `auth.expiring` 5 s after it opens and
      // must renew (and the SDK refreshes on 401 meanwhile), all within this file's time.
      ACCESS_TOKEN_TTL_S: 30,
      WS_EXPIRY_WARNING_S: 25,
    },
  });
  ({ app, runtime } = await runAll({ ...env.config, PORT: port, REALTIME_PORT: 0, LOG_LEVEL: 'silent' }));
  base = `http://127.0.0.1:${port}`;
  browser = await launchChromium();
}, 300_000);
afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => undefined);
  await browser?.close();
  await app?.close();
  await runtime?.close();
  await env?.close();
});

async function newPage(lang = 'en'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale: lang });
  contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error(`[page] ${err.message}`));
  return page;
}

async function shot(page: Page, name: string): Promise<void> {
  await screenshot(page, `account-${name}`, { fullPage: true });
}

const axeSource = () => readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core on the page as it stands: the rules' ids of critical violations (none expected). */
async function criticalViolations(page: Page): Promise<string[]> {
  // Evaluated through the debugging protocol: the page's CSP (script-src 'self') stays on.
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(await axeSource());
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string }> }> } }
    ).axe;
    return (await axe.run()).violations;
  });
  return violations.filter((v) => v.impact === 'critical').map((v) => v.id);
}

async function mailTo(email: string, subject: RegExp): Promise<MailboxMessage> {
  const found = await eventually(
    `a mail "${subject}" to ${email}`,
    async () => {
      const names = (await readdir(env.config.MAILBOX_DIR).catch(() => [] as string[])).filter((n) =>
        n.endsWith('.json'),
      );
      const mails = await Promise.all(
        names.map(
          async (n) => JSON.parse(await readFile(path.join(env.config.MAILBOX_DIR, n), 'utf8')) as MailboxMessage,
        ),
      );
      return mails.find((m) => m.to === email && subject.test(m.subject));
    },
    { timeoutMs: 20_000 },
  );
  return found!;
}

async function signInThroughPage(page: Page, email: string, next = '/account'): Promise<void> {
  await page.goto(`${base}/sign-in?lang=en&next=${encodeURIComponent(next)}`);
  await page.getByLabel('Email', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.locator('main form button[type="submit"]').click();
  await page.waitForURL((u) => u.pathname === next);
}

/** How far an image element has loaded (the test's TypeScript has no DOM types). */
const loaded = (el: unknown) => {
  const img = el as { complete: boolean; naturalWidth: number };
  return img.complete ? img.naturalWidth : 0;
};

const dictionary = async (lang: string) =>
  JSON.parse(await readFile(path.join(repoRoot, 'i18n', `${lang}.json`), 'utf8')) as Record<string, string>;

// One guest's story, step by step: each test builds on the one before.
describe('account screens in the browser', { timeout: 120_000 }, () => {
  const email = `web-account-${Date.now().toString(36)}@example.com`;
  let page: Page;
  let second: Page;

  it('signs up through the slider puzzle the server demands, its proof of work solved in the page', async () => {
    // Someone else registered from this address first: the next registration needs the puzzle.
    const first = await http(base, 'POST', '/v1/auth/register', {
      body: { first_name: 'Ola', last_name: 'Berg', email: `first-${email}`, password: PASSWORD, accept_terms: true },
    });
    expect(first.status).toBe(201);

    page = await newPage();
    await page.goto(`${base}/account/sign-up?lang=en`);
    await page.getByLabel('First name', { exact: true }).fill('Mira');
    await page.getByLabel('Last name', { exact: true }).fill('Tan');
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    // Without consent the page says so beside the box and sends nothing.
    await page.getByRole('button', { name: 'Create account' }).last().click();
    await expect.poll(() => page.locator('#signup-accept_terms-error').innerText()).toMatch(/accept the terms/);
    expect(await page.locator('#signup-accept_terms').getAttribute('aria-describedby')).toBe(
      'signup-accept_terms-error',
    );
    await page.getByLabel('I accept the terms of use', { exact: true }).check();
    await page.getByLabel('Send me news and offers by email', { exact: true }).check();

    const challenge = page.waitForResponse((r) => r.url().endsWith('/v1/auth/captcha'));
    await page.getByRole('button', { name: 'Create account' }).last().click();
    const { captcha_id } = (await (await challenge).json()) as { captcha_id: string };
    const slider = page.getByLabel('Position of the piece', { exact: true });
    await slider.waitFor();
    await shot(page, 'sign-up-captcha');
    expect(await criticalViolations(page)).toEqual([]);

    // The test plays the person who sees where the gap is: the answer the server keeps.
    const { x } = JSON.parse((await runtime.redis.get(`captcha:${captcha_id}`))!) as { x: number };
    // With the keyboard, as anyone can: Home, then one pixel per arrow press.
    await slider.focus();
    await page.keyboard.press('Home');
    for (let i = 0; i < x; i++) await page.keyboard.press('ArrowRight');
    expect(await slider.inputValue()).toBe(String(x));

    const registered = page.waitForResponse((r) => r.url().endsWith('/v1/auth/register'));
    await page.getByRole('button', { name: 'Create account' }).last().click();
    const sent = (await registered).request().postDataJSON() as Record<string, unknown>;
    // A cookie session (spec 5.12): 204, the tokens in HttpOnly cookies, none in the body.
    expect((await registered).status()).toBe(204);
    expect((await registered).request().headers()['x-session']).toBe('cookie');
    expect(sent).toMatchObject({
      captcha_id,
      captcha_answer: String(x),
      captcha_nonce: expect.stringMatching(/^\d+$/),
      accept_terms: true,
      marketing_opt_in: true,
    });
    await page.waitForURL((u) => u.pathname === '/account');
    await expect.poll(() => page.locator('main').innerText()).toContain(`We have sent a confirmation link to ${email}`);
    const { rows } = await env.sql.query('select marketing_opt_in from accounts where email = $1', [email]);
    expect(rows[0].marketing_opt_in).toBe(true);
  });

  it('confirms the email through the link in the development mailbox', async () => {
    const mail = await mailTo(email, /confirm your email/i);
    const link = /https?:\/\/\S+/.exec(mail.text)![0];
    expect(link.startsWith(`${base}/account/confirm-email?token=`)).toBe(true);
    await page.goto(link);
    await expect.poll(() => page.getByRole('status').first().innerText()).toBe('Your email address is confirmed.');
    await shot(page, 'email-confirmed');
    const { rows } = await env.sql.query('select email_confirmed_at from accounts where email = $1', [email]);
    expect(rows[0].email_confirmed_at).not.toBeNull();
    // The link works once: opened again, the page says so.
    await page.goto(link);
    await expect.poll(() => page.getByRole('alert').first().innerText()).toMatch(/invalid, expired or already used/);
  });

  it('signs out and in again; the account screen shows the confirmed email', async () => {
    await page.goto(`${base}/account?lang=en`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('link', { name: 'Sign in' }).first().waitFor();
    expect(await page.evaluate(() => localStorage.getItem('guest.signed-in'))).toBeNull();
    await signInThroughPage(page, email);
    await expect.poll(() => page.locator('[data-confirmed]').getAttribute('data-confirmed')).toBe('true');
    expect(await criticalViolations(page)).toEqual([]);
  });

  it('uploads an avatar after a preview (PNG, then HEIC) and sees it', async () => {
    await page.goto(`${base}/account/profile?lang=en`);
    const input = page.getByLabel('Choose a photo', { exact: true });
    await input.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: await pngImage() });
    await expect.poll(() => page.getByAltText('Preview of the chosen photo').evaluate(loaded)).toBe(40);
    await page.getByRole('button', { name: 'Upload' }).click();
    const avatar = page.getByAltText('Your photo');
    await expect
      .poll(() => avatar.getAttribute('src'))
      .toMatch(new RegExp(`^${base}/v1/media/avatars/[0-9a-f]+\\.jpg$`));
    await expect.poll(() => avatar.evaluate(loaded)).toBeGreaterThan(0);
    const first = await avatar.getAttribute('src');

    // HEIC: the browser cannot draw it, so the page names it; the API turns it into a JPEG.
    await input.setInputFiles({ name: 'photo.heic', mimeType: 'image/heic', buffer: await readFixture('photo.heic') });
    await expect
      .poll(() => page.locator('.avatar-editor').innerText())
      .toContain('photo.heic will be shown once it is uploaded');
    await page.getByRole('button', { name: 'Upload' }).click();
    await expect.poll(() => avatar.getAttribute('src')).not.toBe(first);
    await expect.poll(() => avatar.evaluate(loaded)).toBeGreaterThan(0);
    await shot(page, 'avatar');
    expect(await criticalViolations(page)).toEqual([]);
  });

  it('shows a private file through a one-time ticket, a new one for each look', async () => {
    // The avatar's original is a private file of the account (there is no list of private files).
    const { rows } = await env.sql.query(
      `select m.id from media_files m join accounts a on a.id = m.owner_account_id
        where a.email = $1 order by m.created_at desc limit 1`,
      [email],
    );
    await page.goto(`${base}/account/files/${rows[0].id}?lang=en`);
    const file = page.getByAltText('The private file');
    await expect.poll(() => file.evaluate(loaded)).toBeGreaterThan(0);
    const first = (await file.getAttribute('src'))!;
    expect(first).toMatch(new RegExp(`^${base}/v1/media/${rows[0].id}\\?t=`));
    // The page used the ticket up: the same link opens nothing a second time.
    expect((await http(base, 'GET', new URL(first).pathname + new URL(first).search)).status).toBe(404);
    await page.getByRole('button', { name: 'Show again' }).click();
    await expect.poll(() => file.getAttribute('src')).not.toBe(first);
    await expect.poll(() => file.evaluate(loaded)).toBeGreaterThan(0);
  });

  it('shows a field error from the API beside its field', async () => {
    await page.goto(`${base}/account/profile?lang=en`);
    await page.getByLabel('Phone', { exact: true }).fill('12345');
    await page.getByRole('button', { name: 'Save' }).click();
    const error = page.locator('#profile-phone-error');
    await expect.poll(() => error.innerText()).toMatch(/international form/);
    expect(await page.getByLabel('Phone', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('Phone', { exact: true }).getAttribute('aria-describedby')).toContain(
      'profile-phone-error',
    );
    await page.getByLabel('Phone', { exact: true }).fill('+66812345678');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('status').first().innerText()).toBe('Changes saved');
  });

  it('keeps the header badge fresh from the socket, without asking the API', async () => {
    await page.goto(`${base}/account?lang=en`);
    const badge = page.locator('header .badges');
    await expect.poll(() => badge.getAttribute('data-live'), { timeout: 15_000 }).toBe('true');
    expect(await badge.getAttribute('data-total')).toBe('0');
    const asked: string[] = [];
    page.on('request', (r) => r.url().includes('/v1/me/badges') && asked.push(r.url()));

    // Two unseen assistant messages and one unread notification arrive; reading the notification
    // (from another session of the account) publishes the new counters to the account's sockets.
    const { rows } = await env.sql.query('select id from accounts where email = $1', [email]);
    await env.sql.query(
      `insert into assistant_messages (account_id, role, body) values ($1, 'assistant', 'a'), ($1, 'assistant', 'b')`,
      [rows[0].id],
    );
    await env.sql.query(`insert into notifications (account_id, kind) values ($1, 'booking.status')`, [rows[0].id]);
    const other = await http(base, 'POST', '/v1/auth/login', { body: { email, password: PASSWORD } });
    const read = await http(base, 'POST', '/v1/notifications/read', { token: other.body.access_token });
    expect(read.body).toEqual({ notifications: 0, messages: 0, assistant: 2 });

    await expect.poll(() => badge.getAttribute('data-total')).toBe('2');
    expect(await badge.getAttribute('aria-label')).toBe('Unread: 0 notifications, 0 messages, 2 from the assistant');
    expect(asked).toEqual([]);
    await shot(page, 'badge-updated');
  });

  it('renews the socket with a fresh ticket before it lapses, on the same connection', async () => {
    const sockets: string[] = [];
    const frames: Array<{ dir: 'in' | 'out'; type: string }> = [];
    const renewals: unknown[] = [];
    page.on('websocket', (ws) => {
      sockets.push(ws.url());
      const type = (payload: string | Buffer) => (JSON.parse(String(payload)) as { type: string }).type;
      ws.on('framesent', (f) => {
        frames.push({ dir: 'out', type: type(f.payload) });
        const sent = JSON.parse(String(f.payload)) as { type: string; data?: unknown };
        if (sent.type === 'auth.renew') renewals.push(sent.data);
      });
      ws.on('framereceived', (f) => frames.push({ dir: 'in', type: type(f.payload) }));
    });
    await page.goto(`${base}/account?lang=en`);
    const done = () => frames.filter((f) => f.type === 'auth.renewed').length;
    await expect.poll(done, { timeout: 20_000 }).toBeGreaterThanOrEqual(1);
    expect(frames.map((f) => `${f.dir} ${f.type}`)).toEqual(
      expect.arrayContaining(['in hello', 'in auth.expiring', 'out auth.renew', 'in auth.renewed']),
    );
    // The page holds no token (spec 5.12): it opens and renews the socket with tickets.
    expect(new URL(sockets[0]!).searchParams.has('ticket')).toBe(true);
    expect(renewals[0]).toEqual({ ticket: expect.stringMatching(/^[A-Za-z0-9_-]{20,}$/) });
    // One socket, renewed in place: no reconnect.
    expect(sockets).toHaveLength(1);
    expect(await page.locator('header .badges').getAttribute('data-live')).toBe('true');
  });

  it('the other account screens have no critical axe violations', async () => {
    const { rows } = await env.sql.query('select id from accounts where email = $1', [email]);
    await seedDemoTransactions(runtime.database.db, rows[0].id, runtime.clock.now());
    for (const [screen, heading] of [
      ['/account/sessions', 'Devices and sessions'],
      ['/account/preferences', 'Notification settings'],
      ['/account/transactions', 'Payments and refunds'],
      ['/account/favorites', 'Favorites'],
      ['/account/delete', 'Delete account'],
    ] as const) {
      await page.goto(`${base}${screen}?lang=en`);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await expect.poll(() => page.locator('.loading').count()).toBe(0);
      expect(await criticalViolations(page), screen).toEqual([]);
      await shot(page, screen.split('/').pop()!);
    }
    // A switch is saved at once and stays as set.
    await page.goto(`${base}/account/preferences?lang=en`);
    const offers = page.locator('[id="email-marketing.offers"]');
    // Reloaded only once the page's save has been answered: the switch shows at once, the PUT follows.
    const saved = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes('/v1/me/'));
    await offers.uncheck();
    await expect.poll(() => offers.isChecked()).toBe(false);
    expect((await saved).status()).toBe(200);
    await page.reload();
    await expect.poll(() => page.locator('.loading').count()).toBe(0);
    expect(await page.locator('[id="email-marketing.offers"]').isChecked()).toBe(false);
    expect(await page.locator('[id="email-marketing.news"]').isChecked()).toBe(true);

    await page.goto(`${base}/account/transactions?lang=en`);
    await expect.poll(() => page.locator('.tx tbody tr').count()).toBeGreaterThan(0);
    expect(await page.locator('.tx-summary').innerText()).toMatch(/Paid in \d{4}-\d{2}/);
  });

  it('signs the page out at once when another session signs out everywhere else', async () => {
    await page.goto(`${base}/account?lang=en`);
    await expect.poll(() => page.locator('header .badges').getAttribute('data-live'), { timeout: 15_000 }).toBe('true');

    second = await newPage();
    await signInThroughPage(second, email, '/account/sessions');
    await second.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await expect.poll(() => second.getByRole('status').first().innerText()).toBe('Every other session is ended.');
    await shot(second, 'sessions-signed-out-elsewhere');

    // The first page, untouched, sees its socket closed (4001, session closed) and signs itself out.
    await expect
      .poll(() => page.evaluate(() => localStorage.getItem('guest.signed-in')), { timeout: 10_000 })
      .toBeNull();
    await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).waitFor();
    expect(await page.locator('header .badges').count()).toBe(0);
    await shot(page, 'signed-out-elsewhere');
    // The second session is still signed in.
    expect(await second.evaluate(() => localStorage.getItem('guest.signed-in'))).not.toBeNull();
  });

  it('shows the sign-up and confirmation pages in every language, all strings from the dictionary', async () => {
    for (const lang of ['en', 'ru', 'th', 'zh-Hans']) {
      const strings = await dictionary(lang);
      const p = await newPage(lang);
      await p.goto(`${base}/account/sign-up?lang=${lang}`);
      await p.getByRole('heading', { level: 1, name: strings['account.signup.title'] }).waitFor();
      expect(await p.getByLabel(strings['account.signup.marketing']!).count()).toBe(1);
      await p.goto(`${base}/account/confirm-email?lang=${lang}&token=nope`);
      await expect
        .poll(() => p.getByRole('alert').first().innerText())
        .toBe(strings['account.reason.invalid_or_expired']);
      // No dictionary key shows through as itself.
      expect(await p.locator('body').innerText()).not.toMatch(/\baccount\.[a-z_]+\.[a-z_]+/);
      await shot(p, `sign-up-${lang}`);
    }
  });

  it('deletes the account: the request mails a link, its page confirms, the page is signed out', async () => {
    await second.goto(`${base}/account/delete?lang=en`);
    const request = second.getByRole('button', { name: 'Send the confirmation email' });
    expect(await request.isDisabled()).toBe(true);
    await second.getByLabel('I understand that this cannot be undone', { exact: true }).check();
    await request.click();
    await expect.poll(() => second.getByRole('status').first().innerText()).toMatch(/Check your mailbox/);

    const mail = await mailTo(email, /deletion of your account/i);
    const link = /https?:\/\/\S+/.exec(mail.text)![0];
    expect(link.startsWith(`${base}/account/delete-confirm?token=`)).toBe(true);
    await second.goto(link);
    // Opening the link deletes nothing by itself: one more deliberate click.
    const { rows: before } = await env.sql.query('select status from accounts where email = $1', [email]);
    expect(before[0].status).not.toBe('deleted');
    await shot(second, 'delete-confirm');
    expect(await criticalViolations(second)).toEqual([]);
    await second.getByRole('button', { name: 'Delete my account' }).click();
    await expect.poll(() => second.getByRole('status').first().innerText()).toBe('Your account is deleted.');
    expect(await second.evaluate(() => localStorage.getItem('guest.signed-in'))).toBeNull();
    const { rows } = await env.sql.query(`select count(*)::int as n from accounts where email = $1`, [email]);
    expect(rows[0].n).toBe(0); // the email is erased with the person
  });
});
