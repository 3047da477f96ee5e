import { createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '@guest/runtime';
import { runAll } from '@guest/server/run-all';
import { buildWeb } from '../../scripts/web-build.ts';
import { http } from '../support/http.ts';
import { createIsolatedEnv, type IsolatedEnv } from '../support/isolated-env.ts';
import { launchChromium } from './web/browser.ts';

/**
 * The web session in headless Chromium (spec 5.12): the web client signs in through its own
 * sign-in page, against the one-base-URL server with the socket gateway, and afterwards nothing a
 * script of the page can read holds a token: not `localStorage`, not `sessionStorage`, not
 * `document.cookie`. The session is in HttpOnly cookies, a reload stays signed in, the socket is
 * opened with a ticket, and signing out removes the cookies and ends the session.
 * Needs Debian's `chromium` (`apt-get install -y chromium`).
 */
const PASSWORD = 'correct horse battery staple';

let env: IsolatedEnv;
let app: FastifyInstance;
let runtime: Runtime;
let base: string;
let browser: Browser;
let context: BrowserContext;

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
  env = await createIsolatedEnv({ config: { RATE_LIMIT_LOGIN_PER_MIN: 1000 } });
  ({ app, runtime } = await runAll({ ...env.config, PORT: port, REALTIME_PORT: 0, LOG_LEVEL: 'silent' }));
  base = `http://127.0.0.1:${port}`;
  browser = await launchChromium();
}, 300_000);
afterAll(async () => {
  await context?.close().catch(() => undefined);
  await browser?.close();
  await app?.close();
  await runtime?.close();
  await env?.close();
});

/**
 * Everything a script of the page can read of its storage and cookies, as one text (page code: the
 * test's TypeScript has no DOM types).
 */
const readable = (page: Page) =>
  page.evaluate<string>(`(() => {
    const all = (s) => Array.from({ length: s.length }, (_, i) => s.key(i) + '=' + s.getItem(s.key(i)));
    return [...all(localStorage), ...all(sessionStorage), 'cookie:' + document.cookie].join('\\n');
  })()`);

describe('the web session in the browser', { timeout: 120_000 }, () => {
  const email = `web-session-${Date.now().toString(36)}@example.com`;
  let page: Page;
  const sockets: string[] = [];

  it('signs in through the page: a cookie session, no token in the answer', async () => {
    const reg = await http(base, 'POST', '/v1/auth/register', {
      body: { first_name: 'Ines', last_name: 'Roth', email, password: PASSWORD, accept_terms: true },
    });
    expect(reg.status).toBe(201);
    // The socket needs a confirmed email; the mail's link is another test's subject.
    await env.sql.query('update accounts set email_confirmed_at = now() where email = $1', [email]);

    context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    page = await context.newPage();
    page.on('pageerror', (err) => console.error(`[page] ${err.message}`));
    page.on('websocket', (ws) => sockets.push(ws.url()));
    await page.goto(`${base}/sign-in?lang=en&next=${encodeURIComponent('/account')}`);
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    const answered = page.waitForResponse((r) => r.url().endsWith('/v1/auth/login'));
    await page.locator('main form button[type="submit"]').click();
    const login = await answered;
    expect(login.status()).toBe(204);
    expect(login.request().headers()['x-session']).toBe('cookie');
    // No body at all (a 204 has none to read): no token travels in the answer.
    expect(login.headers()['content-type']).toBeUndefined();
    expect(login.headers()['content-length']).toBeUndefined();
    await page.waitForURL((u) => u.pathname === '/account');
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
  });

  it('keeps the tokens in HttpOnly, SameSite=Strict, Path=/ cookies and nowhere a script can read', async () => {
    const cookies = await context.cookies(base);
    const session = cookies.filter((c) => c.name === 'guest_access' || c.name === 'guest_refresh');
    expect(session.map((c) => c.name).sort()).toEqual(['guest_access', 'guest_refresh']);
    for (const c of session) {
      expect(c).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/', secure: false });
      expect(c.value.length).toBeGreaterThan(20);
    }
    const seen = await readable(page);
    expect(seen).toContain('cookie:');
    expect(seen).not.toMatch(/cookie:.+/);
    for (const c of session) expect(seen).not.toContain(c.value);
    // Nothing token-like either: no JWT, no key named after a token.
    expect(seen).not.toMatch(/eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\./);
    expect(seen).not.toMatch(/access_token|refresh_token/);
  });

  it('opens the socket with a ticket, never with a token in its URL', async () => {
    await expect.poll(() => page.locator('header .badges').getAttribute('data-live'), { timeout: 15_000 }).toBe('true');
    expect(sockets.length).toBeGreaterThan(0);
    for (const url of sockets) {
      expect(new URL(url).searchParams.get('ticket')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
      expect(url).not.toContain('access_token');
    }
  });

  it('stays signed in across a reload, the profile read through the cookie', async () => {
    const me = page.waitForResponse((r) => r.url().endsWith('/v1/me') && r.request().method() === 'GET');
    await page.reload();
    const profile = await me;
    expect(profile.status()).toBe(200);
    expect(profile.request().headers()['x-session']).toBe('cookie');
    expect(profile.request().headers().authorization).toBeUndefined();
    expect(((await profile.json()) as { email: string }).email).toBe(email);
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    const seen = await readable(page);
    for (const c of await context.cookies(base)) expect(seen).not.toContain(c.value);
  });

  it('signs out: the session ends on the server and the browser forgets the cookies', async () => {
    const out = page.waitForResponse((r) => r.url().endsWith('/v1/auth/logout'));
    await page.getByRole('button', { name: 'Sign out' }).click();
    expect((await out).status()).toBe(200);
    await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).first().waitFor();
    const left = (await context.cookies(base)).filter((c) => c.name.startsWith('guest_'));
    expect(left).toEqual([]);
    const { rows } = await env.sql.query(
      `select count(*)::int as n from sessions s join accounts a on a.id = s.account_id
        where a.email = $1 and s.closed_at is null`,
      [email],
    );
    // Only the session of the registration above (a bearer client's) is still open.
    expect(rows[0].n).toBe(1);
    await page.reload();
    await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).first().waitFor();
  });

  it('a session closed on the server: the next request signs the page out and the cookies are dropped', async () => {
    await page.goto(`${base}/sign-in?lang=en&next=${encodeURIComponent('/account')}`);
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.locator('main form button[type="submit"]').click();
    await page.waitForURL((u) => u.pathname === '/account');
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    expect((await context.cookies(base)).filter((c) => c.name.startsWith('guest_'))).toHaveLength(2);
    // Ended without the page hearing of it (no socket message): its cookies are now stale.
    await env.sql.query(
      `update sessions set closed_at = now()
        where closed_at is null and account_id = (select id from accounts where email = $1)`,
      [email],
    );
    const refused = page.waitForResponse((r) => r.url().endsWith('/v1/auth/refresh'));
    await page.reload();
    expect((await refused).status()).toBe(401);
    await page.getByRole('banner').getByRole('link', { name: 'Sign in' }).first().waitFor();
    expect((await context.cookies(base)).filter((c) => c.name.startsWith('guest_'))).toEqual([]);
    expect(await readable(page)).not.toContain('guest.signed-in');
  });
});
