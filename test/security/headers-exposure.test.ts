import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { readApi } from '@guest/read-api';
import { writeApi } from '@guest/write-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { http } from '../support/http.ts';
import { parseRaw, rawRequest } from './support.ts';

// Issue 32 point 8: JSON answers lacked `nosniff`, no HSTS was ever sent, and `/metrics` (per-route
// counts) was public on the API port. Each answer below is taken the way a client or a scanner
// would get it, over HTTP, raw sockets included for what Node's parser refuses. Prints its figures
// as "issue 32 point 8, ...".

const apps: TestApp[] = [];
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
});

async function start(config: Record<string, string | number | boolean> = {}) {
  const t = await startTestApp({ apps: [writeApi, readApi], config: { MAIL_WORKER: false, ...config } });
  apps.push(t);
  return t;
}

const secret = () => randomBytes(32).toString('base64url');

/** One answer of every kind the server gives: success, each error path, operator endpoints, raw refusals. */
async function answersOfEveryKind(t: TestApp): Promise<Array<{ what: string; headers: Record<string, string> }>> {
  const out: Array<{ what: string; headers: Record<string, string> }> = [];
  const take = async (what: string, method: string, path: string, opts: Parameters<typeof http>[3] = {}) => {
    const res = await http(t.url, method, path, opts);
    out.push({ what: `${what} (${res.status})`, headers: Object.fromEntries(res.headers.entries()) });
  };
  await take('JSON answer', 'GET', '/v1/currencies');
  await take('OpenAPI document', 'GET', '/v1/openapi.json');
  await take('docs page', 'GET', '/docs/');
  await take('liveness', 'GET', '/livez');
  await take('readiness', 'GET', '/readyz');
  await take('metrics', 'GET', '/metrics');
  await take('unknown path', 'GET', '/v1/nope');
  await take('wrong method', 'DELETE', '/v1/currencies');
  await take('no sign-in', 'GET', '/v1/me');
  await take('bad token', 'GET', '/v1/me', { token: 'not-a-token' });
  await take('schema refusal', 'POST', '/v1/auth/login', { body: { email: 1 } });
  await take('malformed JSON', 'POST', '/v1/auth/login', {
    rawBody: '{"email":',
    headers: { 'content-type': 'application/json' },
  });
  await take('preflight', 'OPTIONS', '/v1/currencies', {
    headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET' },
  });
  // Refused by Node's HTTP parser before any route: written on the raw socket.
  const { hostname, port } = new URL(t.url);
  for (const [what, bytes] of [
    [
      'headers over the limit',
      `GET /v1/currencies HTTP/1.1\r\nHost: ${hostname}:${port}\r\nX-Big: ${'a'.repeat(70_000)}\r\n\r\n`,
    ],
    [
      'smuggling shape',
      `POST /v1/auth/login HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    ],
  ] as const) {
    const raw = parseRaw(await rawRequest(t.url, bytes));
    out.push({ what: `${what} (${raw.status})`, headers: raw.headers });
  }
  return out;
}

describe('headers every answer carries (issue 32 point 8)', () => {
  it('nosniff on every answer, and no HSTS while the API is not served over https', async () => {
    const t = await start();
    const answers = await answersOfEveryKind(t);
    const without = answers.filter((a) => a.headers['x-content-type-options'] !== 'nosniff').map((a) => a.what);
    console.info(`issue 32 point 8, answers without nosniff: ${without.length} of ${answers.length}`);
    expect(without).toEqual([]);
    expect(answers.filter((a) => a.headers['strict-transport-security']).map((a) => a.what)).toEqual([]);
  });

  it('HSTS on every answer when PUBLIC_BASE_URL is https', async () => {
    const t = await start({ PUBLIC_BASE_URL: 'https://api.example.test', HSTS_MAX_AGE_S: 31_536_000 });
    const answers = await answersOfEveryKind(t);
    const without = answers
      .filter((a) => a.headers['strict-transport-security'] !== 'max-age=31536000')
      .map((a) => a.what);
    console.info(`issue 32 point 8, https: answers without HSTS: ${without.length} of ${answers.length}`);
    expect(without).toEqual([]);
  });
});

describe('/metrics is the operator’s (issue 32 point 8)', () => {
  it('with METRICS_TOKEN: only its bearer reads the metrics', async () => {
    const token = secret();
    const t = await start({ METRICS_TOKEN: token });
    const refused = [
      await http(t.url, 'GET', '/metrics'),
      await http(t.url, 'GET', '/metrics', { token: `${token}x` }),
      await http(t.url, 'GET', '/metrics', { headers: { authorization: `Basic ${token}` } }),
    ];
    for (const r of refused) {
      expect(r.status).toBe(401);
      expect(r.body.error).toMatchObject({ code: 'unauthorized', details: { reason: 'metrics_token' } });
      expect(r.text).not.toContain('http_requests_total');
    }
    const ok = await http(t.url, 'GET', '/metrics', { token });
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('http_requests_total');
  });

  it('in production without a token it is not served at all; with one, behind it', async () => {
    const production = {
      APP_ENV: 'production',
      PUBLIC_BASE_URL: 'https://api.example.test',
      JWT_SECRET: secret(),
      CURSOR_SECRET: secret(),
      IDEMPOTENCY_SECRET: secret(),
      // Required in production; no mail is sent here (MAIL_WORKER off).
      SMTP_URL: 'smtp://127.0.0.1:25',
    };
    const closed = await start(production);
    const res = await http(closed.url, 'GET', '/metrics');
    console.info(`issue 32 point 8, production /metrics without a token: ${res.status}`);
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('not_found');
    expect(res.text).not.toContain('http_requests_total');

    const token = secret();
    const guarded = await start({ ...production, METRICS_TOKEN: token });
    expect((await http(guarded.url, 'GET', '/metrics')).status).toBe(401);
    const scraped = await http(guarded.url, 'GET', '/metrics', { token });
    expect(scraped.status).toBe(200);
    expect(scraped.text).toContain('http_requests_total');
  });
});
