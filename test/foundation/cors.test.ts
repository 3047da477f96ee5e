import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeApi } from '@guest/write-api';
import { ConfigError, loadConfig } from '@guest/config';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { expectEnvelope, http } from '../support/http.ts';
import { probeApp } from './probe-app.ts';

// Issue 10 point 10: a browser client on another origin can call the API and read what it needs.

const WEB = 'https://app.example.test';
const preflight = (origin: string, method = 'POST', headers = 'authorization, content-type, idempotency-key') => ({
  headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
});

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    apps: [probeApp, writeApi],
    config: { CORS_ORIGINS: `${WEB},https://other.example.test`, CORS_MAX_AGE_S: 600, RATE_LIMIT_ADDRESS_PER_MIN: 50 },
  });
});
afterAll(async () => t?.close());

describe('CORS', () => {
  it('answers a preflight from an allowed origin with 204, the path methods, the request headers and a max-age', async () => {
    const res = await http(t.url, 'OPTIONS', '/v1/auth/login', preflight(WEB));
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(WEB);
    expect(res.headers.get('access-control-allow-methods')).toContain('POST');
    const allowHeaders = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase();
    for (const h of ['authorization', 'content-type', 'idempotency-key', 'accept-language', 'if-none-match'])
      expect(allowHeaders).toContain(h);
    expect(res.headers.get('access-control-max-age')).toBe('600');
    expect(res.headers.get('vary')).toMatch(/Origin/);
  });

  it('answers OPTIONS on every route (no 405), with a path parameter too, and 404 on an unknown path', async () => {
    for (const path of ['/v1/me', '/v1/_probe/named/alice', '/health', '/v1/openapi.json']) {
      const res = await http(t.url, 'OPTIONS', path, preflight(WEB, 'GET'));
      expect(res.status, path).toBe(204);
      expect(res.headers.get('allow'), path).toContain('GET');
      expect(res.headers.get('access-control-allow-origin'), path).toBe(WEB);
    }
    expectEnvelope(await http(t.url, 'OPTIONS', '/v1/no-such-endpoint', preflight(WEB)), 404, 'not_found');
  });

  it('gives a disallowed origin no CORS header, on the preflight and on the answer', async () => {
    const pre = await http(t.url, 'OPTIONS', '/v1/auth/login', preflight('https://evil.example.test'));
    expect(pre.status).toBe(204);
    const got = await http(t.url, 'GET', '/v1/_probe/lang', { headers: { origin: 'https://evil.example.test' } });
    expect(got.status).toBe(200);
    for (const res of [pre, got]) {
      for (const name of [...res.headers.keys()]) expect(name.startsWith('access-control-'), name).toBe(false);
    }
    // Not a prefix match: the origin must be exact.
    const near = await http(t.url, 'GET', '/v1/_probe/lang', { headers: { origin: `${WEB}.evil.test` } });
    expect(near.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('lets an allowed origin read X-Request-Id, Retry-After, ETag and the RateLimit headers, on errors too', async () => {
    for (const path of ['/v1/_probe/lang', '/v1/_probe/boom', '/v1/me']) {
      const res = await http(t.url, 'GET', path, { headers: { origin: WEB } });
      expect(res.headers.get('access-control-allow-origin'), path).toBe(WEB);
      const exposed = (res.headers.get('access-control-expose-headers') ?? '').toLowerCase().split(/\s*,\s*/);
      for (const h of ['x-request-id', 'retry-after', 'etag', 'ratelimit', 'ratelimit-policy'])
        expect(exposed, path).toContain(h);
    }
  });

  it('allows any http://localhost:* and http://127.0.0.1:* origin in development only', async () => {
    const dev = await startTestApp({ apps: [probeApp], config: { APP_ENV: 'development', CORS_ORIGINS: '' } });
    try {
      for (const origin of ['http://localhost:5173', 'http://127.0.0.1:3000', 'http://localhost']) {
        const res = await http(dev.url, 'GET', '/v1/_probe/lang', { headers: { origin } });
        expect(res.headers.get('access-control-allow-origin'), origin).toBe(origin);
      }
      const https = await http(dev.url, 'GET', '/v1/_probe/lang', {
        headers: { origin: 'http://localhost.evil.test' },
      });
      expect(https.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await dev.close();
    }
    // `t` runs with APP_ENV=test: a local origin is not allowed there.
    const res = await http(t.url, 'GET', '/v1/_probe/lang', { headers: { origin: 'http://localhost:5173' } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('refuses * in production and anything but exact origins anywhere, at start-up', () => {
    expect(() => loadConfig({}, { APP_ENV: 'production', CORS_ORIGINS: '*' })).toThrow(/CORS_ORIGINS/);
    for (const bad of [
      'https://app.example.test/',
      'app.example.test',
      'https://app.example.test/path',
      'ftp://x.test',
    ])
      expect(() => loadConfig({}, { CORS_ORIGINS: bad }), bad).toThrow(ConfigError);
    expect(loadConfig({}, { APP_ENV: 'test', CORS_ORIGINS: '*' }).CORS_ORIGINS).toEqual(['*']);
  });
});

describe('RateLimit headers (draft-ietf-httpapi-ratelimit-headers)', () => {
  it('name the per-address policy with its quota, window, remaining requests and reset', async () => {
    const a = await http(t.url, 'GET', '/v1/_probe/lang');
    const b = await http(t.url, 'GET', '/v1/_probe/lang');
    expect(a.headers.get('ratelimit-policy')).toBe('"per-address";q=50;w=60');
    const r = (h: string | null) => /^"per-address";r=([0-9]+);t=([0-9]+)$/.exec(h ?? '');
    const ra = r(a.headers.get('ratelimit'));
    const rb = r(b.headers.get('ratelimit'));
    expect(ra, a.headers.get('ratelimit') ?? '').not.toBeNull();
    expect(Number(rb![1])).toBe(Number(ra![1]) - 1);
    expect(Number(ra![2])).toBeGreaterThanOrEqual(1);
    expect(Number(ra![2])).toBeLessThanOrEqual(60);
  });

  it('show the tightest limit that applied: the login limit on login', async () => {
    const res = await http(t.url, 'POST', '/v1/auth/login', {
      body: { email: 'nobody@example.test', password: 'not the right password' },
    });
    expect(res.headers.get('ratelimit-policy')).toBe(`"login";q=${t.config.RATE_LIMIT_LOGIN_PER_MIN};w=60`);
    expect(res.headers.get('ratelimit')).toMatch(/^"login";r=[0-9]+;t=[0-9]+$/);
  });

  it('are absent where no limit is counted (/health)', async () => {
    const res = await http(t.url, 'GET', '/health');
    expect(res.headers.get('ratelimit')).toBeNull();
  });

  it('show r=0 on the 429', async () => {
    const small = await startTestApp({ apps: [probeApp], config: { RATE_LIMIT_ADDRESS_PER_MIN: 2 } });
    try {
      await http(small.url, 'GET', '/v1/_probe/lang');
      await http(small.url, 'GET', '/v1/_probe/lang');
      const over = await http(small.url, 'GET', '/v1/_probe/lang');
      expectEnvelope(over, 429, 'rate_limited');
      expect(over.headers.get('ratelimit')).toMatch(/^"per-address";r=0;t=[0-9]+$/);
      expect(over.headers.get('ratelimit-policy')).toBe('"per-address";q=2;w=60');
    } finally {
      await small.close();
    }
  });
});
