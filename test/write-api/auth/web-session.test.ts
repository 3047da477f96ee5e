import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redeemWsTicket } from '@guest/auth';
import type { TestApp } from '../../support/test-app.ts';
import { expectEnvelope, http, type HttpResult } from '../../support/http.ts';
import { confirmEmail, PASSWORD, register, startAuthApp, uniqueEmail } from './support.ts';

/**
 * The web session (spec 5.12): with `X-Session: cookie` register, login and refresh set the tokens
 * as HttpOnly cookies and answer without them; every signed-in operation takes the cookie behind
 * the CSRF check (the header and an allowed Origin); logout removes the cookies. Bearer clients
 * see none of it.
 */
const ALLOWED = 'https://app.example.com';
let t: TestApp;
let secure: TestApp;
beforeAll(async () => {
  [t, secure] = await Promise.all([
    startAuthApp({ CORS_ORIGINS: ALLOWED }),
    startAuthApp({ PUBLIC_BASE_URL: 'https://guest.example.com' }),
  ]);
});
afterAll(async () => Promise.all([t?.close(), secure?.close()]));

const WEB = { 'x-session': 'cookie' };

interface SetCookie {
  name: string;
  value: string;
  attrs: Map<string, string>;
}

function setCookies(res: HttpResult): SetCookie[] {
  return res.headers.getSetCookie().map((line) => {
    const [pair, ...rest] = line.split(';').map((s) => s.trim());
    const eq = pair!.indexOf('=');
    const attrs = new Map<string, string>();
    for (const a of rest) {
      const i = a.indexOf('=');
      attrs.set((i < 0 ? a : a.slice(0, i)).toLowerCase(), i < 0 ? '' : a.slice(i + 1));
    }
    return { name: pair!.slice(0, eq), value: pair!.slice(eq + 1), attrs };
  });
}

/** The `Cookie` header a browser would send back after this answer. */
function jar(res: HttpResult): string {
  return setCookies(res)
    .filter((c) => c.attrs.get('max-age') !== '0')
    .map((c) => `${c.name}=${c.value}`)
    .join('; ');
}

async function webLogin(app: TestApp, email: string, headers: Record<string, string> = {}) {
  return http(app.url, 'POST', '/v1/auth/login', {
    body: { email, password: PASSWORD },
    headers: { ...WEB, ...headers },
  });
}

async function webUser(app = t) {
  const email = uniqueEmail('web');
  const res = await http(app.url, 'POST', '/v1/auth/register', {
    body: { first_name: 'Mia', last_name: 'Chen', email, password: PASSWORD, accept_terms: true },
    headers: WEB,
  });
  return { email, res, cookie: jar(res) };
}

describe('signing in for a cookie session (X-Session: cookie)', () => {
  it('register and login set HttpOnly, SameSite, Path=/ cookies, not Secure over http, and no token in the body', async () => {
    const { email, res } = await webUser();
    for (const r of [res, await webLogin(t, email)]) {
      expect(r.status).toBe(204);
      expect(r.text).toBe('');
      expect(r.headers.get('cache-control')).toBe('no-store');
      const cookies = setCookies(r);
      expect(cookies.map((c) => c.name).sort()).toEqual(['guest_access', 'guest_refresh']);
      for (const c of cookies) {
        expect(c.value.length).toBeGreaterThan(20);
        expect(c.attrs.has('httponly')).toBe(true);
        expect(c.attrs.get('samesite')).toBe('Strict');
        expect(c.attrs.get('path')).toBe('/');
        expect(c.attrs.has('secure')).toBe(false);
        expect(c.attrs.has('domain')).toBe(false);
      }
      const access = cookies.find((c) => c.name === 'guest_access')!;
      expect(access.attrs.get('max-age')).toBe(String(t.config.ACCESS_TOKEN_TTL_S));
      const refresh = cookies.find((c) => c.name === 'guest_refresh')!;
      expect(refresh.attrs.get('max-age')).toBe(String(t.config.SESSION_IDLE_TTL_D * 86_400));
    }
  });

  it('the cookies are Secure when PUBLIC_BASE_URL is https', async () => {
    const { res } = await webUser(secure);
    expect(res.status).toBe(204);
    for (const c of setCookies(res)) expect(c.attrs.has('secure')).toBe(true);
  });

  it('the cookie signs in the write API, ws-ticket included, with the header from the own or an allowed origin', async () => {
    const { email, cookie } = await webUser();
    await confirmEmail(t, email);
    const me = await http(t.url, 'GET', '/v1/me', { headers: { ...WEB, cookie } });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(email);
    expect(me.headers.get('cache-control')).toBe('no-store');
    const allowed = await http(t.url, 'GET', '/v1/me', { headers: { ...WEB, cookie, origin: ALLOWED } });
    expect(allowed.status).toBe(200);
    const own = await http(t.url, 'GET', '/v1/me', { headers: { ...WEB, cookie, origin: new URL(t.url).origin } });
    expect(own.status).toBe(200);
    const ticket = await http(t.url, 'POST', '/v1/auth/ws-ticket', { headers: { ...WEB, cookie } });
    expect(ticket.status).toBe(200);
    const { rows } = await t.sql.query('select id from accounts where email = $1', [email]);
    expect((await redeemWsTicket(t.runtime.redis, ticket.body.ticket))?.accountId).toBe(rows[0].id);
  });

  it('refresh takes the refresh token from the cookie and sets a fresh access cookie, still without a body', async () => {
    const { cookie } = await webUser();
    const res = await http(t.url, 'POST', '/v1/auth/refresh', { headers: { ...WEB, cookie } });
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    const after = setCookies(res);
    const access = after.find((c) => c.name === 'guest_access')!;
    const refresh = after.find((c) => c.name === 'guest_refresh')!;
    const old = Object.fromEntries(cookie.split('; ').map((p) => p.split('=') as [string, string]));
    // Spec section 3: a new access token, the same refresh token, the session extended.
    expect(access.value).not.toBe(old.guest_access);
    expect(refresh.value).toBe(old.guest_refresh);
    expect(refresh.attrs.get('max-age')).toBe(String(t.config.SESSION_IDLE_TTL_D * 86_400));
    const me = await http(t.url, 'GET', '/v1/me', { headers: { ...WEB, cookie: jar(res) } });
    expect(me.status).toBe(200);
    // Only the refresh cookie left (the access cookie lapsed): 401, then refresh signs in again.
    const onlyRefresh = `guest_refresh=${old.guest_refresh}`;
    expectEnvelope(
      await http(t.url, 'GET', '/v1/me', { headers: { ...WEB, cookie: onlyRefresh } }),
      401,
      'unauthorized',
    );
    expect((await http(t.url, 'POST', '/v1/auth/refresh', { headers: { ...WEB, cookie: onlyRefresh } })).status).toBe(
      204,
    );
  });

  it('logout ends the session and removes both cookies; the old cookies are then refused', async () => {
    const { cookie } = await webUser();
    const out = await http(t.url, 'POST', '/v1/auth/logout', { headers: { ...WEB, cookie } });
    expect(out.status).toBe(200);
    const cleared = setCookies(out);
    expect(cleared.map((c) => c.name).sort()).toEqual(['guest_access', 'guest_refresh']);
    for (const c of cleared) {
      expect(c.value).toBe('');
      expect(c.attrs.get('max-age')).toBe('0');
      expect(c.attrs.get('path')).toBe('/');
    }
    const me = await http(t.url, 'GET', '/v1/me', { headers: { ...WEB, cookie } });
    expect(expectEnvelope(me, 401, 'unauthorized').details.reason).toBe('session_closed');
    const refresh = await http(t.url, 'POST', '/v1/auth/refresh', { headers: { ...WEB, cookie } });
    expectEnvelope(refresh, 401, 'unauthorized');
    // A refused refresh also tells the browser to forget the cookies.
    expect(setCookies(refresh).every((c) => c.attrs.get('max-age') === '0')).toBe(true);
  });

  it('an Idempotency-Key replay of a cookie login sets the same cookies again, and still no token in the body', async () => {
    const { email } = await webUser();
    const headers = { ...WEB, 'idempotency-key': crypto.randomUUID() };
    const first = await webLogin(t, email, headers);
    const again = await webLogin(t, email, headers);
    expect(again.status).toBe(204);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.text).toBe('');
    expect(jar(again)).toBe(jar(first));
  });
});

describe('the CSRF check of cookie-authenticated requests', () => {
  it('refuses a request signed in by the cookie without X-Session: 403 forbidden (csrf_header), reads and writes alike', async () => {
    const { cookie } = await webUser();
    for (const [method, path] of [
      ['GET', '/v1/me'],
      ['POST', '/v1/auth/ws-ticket'],
      ['POST', '/v1/auth/logout'],
    ] as const) {
      const res = await http(t.url, method, path, { headers: { cookie } });
      expect(expectEnvelope(res, 403, 'forbidden').details.reason).toBe('csrf_header');
    }
    // The session is still open: the refused logout did nothing.
    expect((await http(t.url, 'GET', '/v1/me', { headers: { ...WEB, cookie } })).status).toBe(200);
  });

  it('refuses a foreign Origin, or a browser saying cross-site: 403 forbidden (csrf_origin)', async () => {
    const { email, cookie } = await webUser();
    const foreign = { ...WEB, cookie, origin: 'https://evil.example.net' };
    for (const [method, path] of [
      ['GET', '/v1/me'],
      ['PATCH', '/v1/me'],
      ['POST', '/v1/auth/refresh'],
      ['POST', '/v1/auth/logout'],
    ] as const) {
      const res = await http(t.url, method, path, { headers: foreign, ...(method === 'PATCH' ? { body: {} } : {}) });
      expect(expectEnvelope(res, 403, 'forbidden').details.reason).toBe('csrf_origin');
    }
    const crossSite = await http(t.url, 'GET', '/v1/me', {
      headers: { ...WEB, cookie, 'sec-fetch-site': 'cross-site' },
    });
    expect(expectEnvelope(crossSite, 403, 'forbidden').details.reason).toBe('csrf_origin');
    // Asking for a cookie session from a foreign origin is refused as well (login CSRF).
    const login = await webLogin(t, email, { origin: 'https://evil.example.net' });
    expect(expectEnvelope(login, 403, 'forbidden').details.reason).toBe('csrf_origin');
    expect(login.headers.getSetCookie()).toEqual([]);
  });
});

describe('CORS for the web session', () => {
  it('lets an allowed origin send X-Session with its cookies; another origin gets no CORS answer', async () => {
    const preflight = (origin: string) =>
      fetch(`${t.url}/v1/me`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-session' },
      });
    const allowed = await preflight(ALLOWED);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ALLOWED);
    expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
    expect(allowed.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('x-session');
    const foreign = await preflight('https://evil.example.net');
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
    expect(foreign.headers.get('access-control-allow-credentials')).toBeNull();
  });
});

describe('bearer clients are unchanged', () => {
  it('register, login and refresh answer the token pair and set no cookie; a bearer request needs no X-Session', async () => {
    const u = await register(t);
    const login = await http(t.url, 'POST', '/v1/auth/login', { body: { email: u.email, password: PASSWORD } });
    expect(login.status).toBe(200);
    expect(Object.keys(login.body).sort()).toEqual([
      'access_token',
      'expires_in',
      'refresh_token',
      'session_id',
      'token_type',
    ]);
    expect(login.headers.getSetCookie()).toEqual([]);
    const refresh = await http(t.url, 'POST', '/v1/auth/refresh', { body: { refresh_token: u.tokens.refresh_token } });
    expect(refresh.status).toBe(200);
    expect(refresh.body.refresh_token).toBe(u.tokens.refresh_token);
    expect(refresh.headers.getSetCookie()).toEqual([]);
    const me = await http(t.url, 'GET', '/v1/me', {
      token: login.body.access_token,
      headers: { origin: 'https://evil.example.net' },
    });
    expect(me.status).toBe(200);
    const out = await http(t.url, 'POST', '/v1/auth/logout', { token: login.body.access_token });
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie()).toEqual([]);
  });

  it('the Authorization header wins over a cookie: another session cookie does not change who is calling', async () => {
    const bearer = await register(t);
    const { cookie } = await webUser();
    const me = await http(t.url, 'GET', '/v1/me', { token: bearer.tokens.access_token, headers: { cookie } });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(bearer.email);
  });
});
