import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeApi } from '@guest/write-api';
import { readApi } from '@guest/read-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { captureLog } from '../support/captured-log.ts';
import { eventually } from '../support/eventually.ts';
import { expectEnvelope, http, type HttpResult } from '../support/http.ts';
import { probeApp } from '../foundation/probe-app.ts';
import { loadConfig } from '@guest/config';
import { closedPort, PASSWORD, relaxedLimits, startForwarder, timed, uniqueEmail } from './support.ts';

// Issue 14 point 5, DESIGN.md section 6: a dependency that is down is 503 `unavailable` with
// `Retry-After`, answered fast; never a 500 and never a request that hangs on retries. Each
// outage is real: the app's runtime points at a port of this machine on which nothing listens.

/**
 * What tells a fast refusal from a wait on the dead dependency: the median under 250 ms, and no
 * answer as slow as the 2 s that the fastest of the old waits took (before the fix they took 2 to
 * 18 s with Redis down, or were 500s). The limit on the slowest answer is not 1 s: on a loaded
 * 2-core CI machine the first answer of a fresh process took 1.3 s once, with nothing waited on.
 * How fast the answers are is measured and printed here, not judged (benchmarks judge speed).
 */
const FAST_MS = 250;
const SLOWEST_MS = 2000;
/** Measured answer times, printed at the end (the closing note quotes them). */
const timings: Record<string, number[]> = {};

async function call(
  t: TestApp,
  label: string,
  method: string,
  path: string,
  opts: Parameters<typeof http>[3] = {},
): Promise<HttpResult> {
  const { ms, value } = await timed(() => http(t.url, method, path, opts));
  (timings[label] ??= []).push(Math.round(ms * 10) / 10);
  return value;
}

function expectUnavailable(res: HttpResult) {
  const e = expectEnvelope(res, 503, 'unavailable');
  const retry = Number(res.headers.get('retry-after'));
  expect(Number.isInteger(retry) && retry >= 1, `Retry-After ${res.headers.get('retry-after')}`).toBe(true);
  expect(e.details.retry_after).toBe(retry);
  return e;
}

/** The answers of `label` were fast: median under FAST_MS, none over SLOWEST_MS. */
function expectFast(label: string) {
  const all = timings[label] ?? [];
  expect(all.length).toBeGreaterThan(0);
  const sorted = [...all].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  expect(median, `${label}: ${all.join(', ')} ms`).toBeLessThan(FAST_MS);
  expect(sorted.at(-1)!, `${label}: ${all.join(', ')} ms`).toBeLessThan(SLOWEST_MS);
}

afterAll(() => {
  const rows = Object.entries(timings).map(([k, v]) => `  ${k}: ${v.join(', ')} ms`);
  console.log(`outage answer times\n${rows.join('\n')}`);
});

describe('Redis down', () => {
  let t: TestApp;
  beforeAll(async () => {
    const port = await closedPort();
    t = await startTestApp({
      apps: [probeApp, writeApi, readApi],
      config: { ...relaxedLimits, REDIS_URL: `redis://127.0.0.1:${port}` },
    });
  });
  afterAll(async () => t?.close());

  it('routes that need Redis answer 503 unavailable with Retry-After, fast', async () => {
    for (let i = 0; i < 5; i++) {
      expectUnavailable(
        await call(t, 'redis down: POST /v1/auth/login', 'POST', '/v1/auth/login', {
          body: { email: uniqueEmail(), password: PASSWORD },
        }),
      );
      expectUnavailable(await call(t, 'redis down: POST /v1/auth/captcha', 'POST', '/v1/auth/captcha'));
      expectUnavailable(
        await call(
          t,
          'redis down: GET /v1/auth/email-availability',
          'GET',
          `/v1/auth/email-availability?email=${uniqueEmail()}`,
        ),
      );
      expectUnavailable(
        await call(t, 'redis down: POST /v1/auth/register', 'POST', '/v1/auth/register', {
          body: { first_name: 'A', last_name: 'B', email: uniqueEmail(), password: PASSWORD, accept_terms: true },
        }),
      );
      expectUnavailable(
        await call(t, 'redis down: POST /v1/auth/password-reset/request', 'POST', '/v1/auth/password-reset/request', {
          body: { email: uniqueEmail() },
        }),
      );
    }
    for (const label of Object.keys(timings).filter(
      (k) => k.startsWith('redis down: POST') || k.includes('email-av'),
    )) {
      expectFast(label);
    }
  });

  it('every other route answers normally and fast: the per-address limit fails open without waiting', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await call(t, 'redis down: GET /v1/_probe/lang', 'GET', '/v1/_probe/lang')).status).toBe(200);
      expect((await call(t, 'redis down: GET /v1/categories', 'GET', '/v1/categories?kind=experience')).status).toBe(
        200,
      );
    }
    expectFast('redis down: GET /v1/_probe/lang');
    expectFast('redis down: GET /v1/categories');
  });
});

describe('search engine down', () => {
  let t: TestApp;
  beforeAll(async () => {
    const port = await closedPort();
    t = await startTestApp({ apps: [readApi], config: { SEARCH_URL: `http://127.0.0.1:${port}` } });
  });
  afterAll(async () => t?.close());

  it('search and events answer 503 unavailable with Retry-After, not 500, fast', async () => {
    for (let i = 0; i < 5; i++) {
      expectUnavailable(await call(t, 'search down: GET /v1/search/listings', 'GET', '/v1/search/listings'));
      expectUnavailable(await call(t, 'search down: GET /v1/search/count', 'GET', '/v1/search/count'));
      expectUnavailable(await call(t, 'search down: GET /v1/events/feed', 'GET', '/v1/events/feed'));
    }
    expectFast('search down: GET /v1/search/listings');
    expectFast('search down: GET /v1/search/count');
    expectFast('search down: GET /v1/events/feed');
  });
});

describe('Redis lost while the server runs, then back', () => {
  let t: TestApp;
  let redis: Awaited<ReturnType<typeof startForwarder>>;
  beforeAll(async () => {
    const target = new URL(loadConfig({ ...process.env, APP_ENV: 'test' }).REDIS_URL);
    redis = await startForwarder({ host: target.hostname, port: Number(target.port || 6379) });
    t = await startTestApp({
      apps: [probeApp, writeApi],
      config: { ...relaxedLimits, REDIS_URL: `redis://127.0.0.1:${redis.port}`, RATE_LIMIT_ADDRESS_PER_MIN: 1000 },
    });
  });
  afterAll(async () => {
    await t?.close();
    await redis?.stop();
  });

  it('fails fast while it is gone (no queue, no retries) and recovers by itself', async () => {
    expect((await http(t.url, 'POST', '/v1/auth/captcha')).status).toBe(200);
    await redis.stop();
    for (let i = 0; i < 5; i++) {
      expectUnavailable(await call(t, 'redis lost: POST /v1/auth/captcha', 'POST', '/v1/auth/captcha'));
      expect((await call(t, 'redis lost: GET /v1/_probe/lang', 'GET', '/v1/_probe/lang')).status).toBe(200);
    }
    expectFast('redis lost: POST /v1/auth/captcha');
    expectFast('redis lost: GET /v1/_probe/lang');
    await redis.start();
    // Captcha works again once Redis is back, without a restart.
    await eventually(
      'POST /v1/auth/captcha to answer 200 again',
      async () => (await http(t.url, 'POST', '/v1/auth/captcha')).status,
      {
        timeoutMs: 10_000,
        until: (status) => status === 200,
      },
    );
  });
});

describe('Postgres lost while the server runs, then back', () => {
  let t: TestApp;
  let pgPort: Awaited<ReturnType<typeof startForwarder>>;
  const log = captureLog();
  beforeAll(async () => {
    const target = new URL(loadConfig({ ...process.env, APP_ENV: 'test' }).DATABASE_URL);
    pgPort = await startForwarder({ host: target.hostname, port: Number(target.port || 5432) });
    t = await startTestApp({
      apps: [writeApi, readApi],
      config: { ...relaxedLimits, LOG_LEVEL: 'info' },
      rewriteDatabaseUrl: (url) => {
        const u = new URL(url);
        u.hostname = '127.0.0.1';
        u.port = String(pgPort.port);
        return u.toString();
      },
      logStream: log.stream,
    });
  });
  afterAll(async () => {
    await pgPort?.start();
    await t?.close();
    await pgPort?.stop();
  });

  it('routes that read or write Postgres answer 503 unavailable with Retry-After, fast; others normally', async () => {
    await pgPort.stop();
    for (let i = 0; i < 5; i++) {
      expectUnavailable(
        await call(t, 'postgres down: POST /v1/auth/login', 'POST', '/v1/auth/login', {
          body: { email: uniqueEmail(), password: PASSWORD },
        }),
      );
      expectUnavailable(await call(t, 'postgres down: GET /v1/categories', 'GET', '/v1/categories?kind=food'));
      expect((await call(t, 'postgres down: GET /v1/i18n/languages', 'GET', '/v1/i18n/languages')).status).toBe(200);
    }
    expectFast('postgres down: POST /v1/auth/login');
    expectFast('postgres down: GET /v1/categories');
    expectFast('postgres down: GET /v1/i18n/languages');
  });

  it('the failed query is logged without its parameters: a planted email and password are in no log line', async () => {
    await pgPort.stop();
    const email = `planted-${Date.now()}@example.com`;
    const password = `planted-password-${Date.now()}`;
    const before = log.lines.length;
    const res = await http(t.url, 'POST', '/v1/auth/login', { body: { email, password } });
    const e = expectUnavailable(res);
    await log.requestDone(e.request_id);
    const lines = log.lines.slice(before).join('');
    expect(lines).toContain(e.request_id);
    expect(lines).toMatch(/ECONNREFUSED/);
    expect(lines).not.toContain(email);
    expect(lines).not.toContain('planted-password');
  });

  it('recovers by itself once Postgres is back', async () => {
    await pgPort.start();
    const res = await http(t.url, 'GET', '/v1/categories?kind=food');
    expect(res.status).toBe(200);
    const login = await http(t.url, 'POST', '/v1/auth/login', { body: { email: uniqueEmail(), password: PASSWORD } });
    expectEnvelope(login, 401, 'unauthorized');
  });
});
