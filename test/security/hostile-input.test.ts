import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppPlugin } from '@guest/http-kit';
import { writeApi } from '@guest/write-api';
import { readApi } from '@guest/read-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { captureLog } from '../support/captured-log.ts';
import { expectEnvelope, http } from '../support/http.ts';
import { probeApp } from '../foundation/probe-app.ts';
import { PASSWORD, parseRaw, rawRequest, relaxedLimits, signUp, uniqueEmail } from './support.ts';

// Issue 14 point 4: hostile input is a 4xx in the envelope naming the field, never a 500 from
// Postgres; the database error path never logs query parameters.

/** A route that sends a request value into a query that fails (a uuid cast of any text). */
async function failingQuery(app: FastifyInstance) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/v1/_probe/lookup', { schema: { querystring: z.object({ id: z.string() }) } }, async (req) => {
      const rows = await app.runtime.database.db.execute(sql`select ${req.query.id}::uuid as id`);
      return { rows: rows.rows };
    });
}
const failingQueryApp: AppPlugin = { name: 'failing-query', plugin: failingQuery };

let t: TestApp;
const log = captureLog();
let me: { email: string; token: string; accountId: string };

beforeAll(async () => {
  t = await startTestApp({
    apps: [probeApp, failingQueryApp, writeApi, readApi],
    config: { ...relaxedLimits, LOG_LEVEL: 'info' },
    logStream: log.stream,
  });
  me = await signUp(t);
  await t.sql.query('update accounts set email_confirmed_at = now() where id = $1', [me.accountId]);
});
afterAll(async () => t?.close());

function expectField(res: Awaited<ReturnType<typeof http>>, field: string | null, reason: string) {
  const e = expectEnvelope(res, 400, 'validation_error');
  if (field !== null) expect(e.details.field).toBe(field);
  else expect(typeof e.details.field).toBe('string');
  expect(e.details.reason).toBe(reason);
  return e;
}

describe('NUL and lone surrogates in JSON bodies: 400 validation_error naming the field', () => {
  it('register without sign-in', async () => {
    const body = {
      first_name: 'An\u0000na',
      last_name: 'Lee',
      email: uniqueEmail(),
      password: PASSWORD,
      accept_terms: true,
    };
    expectField(await http(t.url, 'POST', '/v1/auth/register', { body }), 'first_name', 'invalid_text');
    const lone = { ...body, first_name: 'Anna', last_name: 'Lee\ud800' };
    expectField(await http(t.url, 'POST', '/v1/auth/register', { body: lone }), 'last_name', 'invalid_text');
    const low = { ...body, first_name: 'Anna', email: `x\udc00${uniqueEmail()}` };
    expectField(await http(t.url, 'POST', '/v1/auth/register', { body: low }), 'email', 'invalid_text');
  });

  it('profile, devices and saved search filters', async () => {
    const token = me.token;
    expectField(
      await http(t.url, 'PATCH', '/v1/me/profile', { token, body: { first_name: 'A\u0000' } }),
      'first_name',
      'invalid_text',
    );
    expectField(
      await http(t.url, 'POST', '/v1/devices', {
        token,
        body: { device_id: 'd1', platform: 'android', push_permission: true, push_token: 'tok\u0000en' },
      }),
      'push_token',
      'invalid_text',
    );
    expectField(
      await http(t.url, 'PUT', '/v1/me/search-filters', { token, body: { stay: { tags: ['ok', 'b\u0000d'] } } }),
      'stay.tags.1',
      'invalid_text',
    );
    // In a key too: the field named is the object that holds it.
    expectField(
      await http(t.url, 'PUT', '/v1/me/search-filters', { token, body: { stay: { 'k\u0000': 1 } } }),
      'stay',
      'invalid_text',
    );
    // Nothing of it was stored, and clean text still is.
    const ok = await http(t.url, 'PUT', '/v1/me/search-filters', { token, body: { stay: { q: 'beach ☀️ 海' } } });
    expect(ok.status).toBe(200);
    expect(ok.body.stay).toEqual({ q: 'beach ☀️ 海' });
  });
});

describe('stored JSON is bounded in depth and array size', () => {
  it('refuses 4,000 nested arrays and a 2,000-item array in saved filters; takes a normal one', async () => {
    const deep = `{"stay":{"x":${'['.repeat(4000)}${']'.repeat(4000)}}}`;
    const e = expectField(
      await http(t.url, 'PUT', '/v1/me/search-filters', {
        token: me.token,
        rawBody: deep,
        headers: { 'content-type': 'application/json' },
      }),
      null,
      'too_deep',
    );
    expect(e.message).toMatch(/at most 16 levels/);
    expectField(
      await http(t.url, 'PUT', '/v1/me/search-filters', {
        token: me.token,
        body: { stay: { amenities: Array.from({ length: 2000 }, () => 1) } },
      }),
      'stay.amenities',
      'too_many_items',
    );
    const ok = await http(t.url, 'PUT', '/v1/me/search-filters', {
      token: me.token,
      body: { experience: { price: { min: 1, max: 9 }, amenities: [1, 2, 3] } },
    });
    expect(ok.status).toBe(200);
  });
});

describe('NUL in query strings and path parameters: 400 validation_error naming the parameter', () => {
  it('a query parameter', async () => {
    const e = expectField(
      await http(t.url, 'GET', '/v1/auth/email-availability?email=a%00b@example.com'),
      'email',
      'invalid_text',
    );
    expect(e.message).toMatch(/query parameter email/);
  });

  it('a path parameter (tx_id)', async () => {
    expectField(await http(t.url, 'GET', '/v1/me/transactions/pay_1%00', { token: me.token }), 'tx_id', 'invalid_text');
    // A clean id that does not exist is still the route's own 404.
    expectEnvelope(await http(t.url, 'GET', '/v1/me/transactions/pay_1', { token: me.token }), 404, 'not_found');
  });
});

describe('numbers in query parameters are decimal digits; empty is not 0', () => {
  it('limit (the shared limitParam)', async () => {
    for (const bad of ['0x10', '1e1', '%205', '5%20', '+5', '0b1', 'Infinity']) {
      const res = await http(t.url, 'GET', `/v1/me/transactions?limit=${bad}`, { token: me.token });
      expectField(res, 'limit', 'not_decimal');
    }
    expectField(await http(t.url, 'GET', '/v1/me/transactions?limit=', { token: me.token }), 'limit', 'empty');
    const ok = await http(t.url, 'GET', '/v1/me/transactions?limit=16', { token: me.token });
    expect(ok.status).toBe(200);
  });

  it("a route's own coerced number (zoom of the search map)", async () => {
    expectField(await http(t.url, 'GET', '/v1/search/map?zoom='), 'zoom', 'empty');
    expectField(await http(t.url, 'GET', '/v1/search/map?zoom=0x5'), 'zoom', 'not_decimal');
    expectField(await http(t.url, 'GET', '/v1/search/map?zoom=1e1'), 'zoom', 'not_decimal');
  });
});

describe('a password of only white space', () => {
  it('is refused at registration, whatever its length', async () => {
    for (const password of [' '.repeat(10), ' \t'.repeat(8), '\u00a0\u3000'.repeat(6)]) {
      const res = await http(t.url, 'POST', '/v1/auth/register', {
        body: { first_name: 'Anna', last_name: 'Lee', email: uniqueEmail(), password, accept_terms: true },
      });
      expectField(res, 'password', 'blank');
    }
  });
});

describe('broken multipart: a 4xx in the envelope, not a 500', () => {
  it('no boundary', async () => {
    const res = await http(t.url, 'PUT', '/v1/me/avatar', {
      token: me.token,
      rawBody: 'whatever',
      headers: { 'content-type': 'multipart/form-data' },
    });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(expectEnvelope(res, res.status, res.body?.error?.code).request_id).toBeTruthy();
  });

  it('a body cut off inside the file part', async () => {
    const b = 'XyZboundary';
    const rawBody =
      `--${b}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n` +
      `Content-Type: image/png\r\n\r\n\u0089PNG\r\n\u001a\n0000000000`;
    const res = await http(t.url, 'PUT', '/v1/me/avatar', {
      token: me.token,
      rawBody,
      headers: { 'content-type': `multipart/form-data; boundary=${b}` },
    });
    expectField(res, null, 'malformed_multipart');
  });
});

describe("Node's HTTP parser errors get the envelope and X-Request-Id", () => {
  function expectRawEnvelope(raw: string, status: number, code: string) {
    const r = parseRaw(raw);
    expect(r.status, raw.slice(0, 200)).toBe(status);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.body?.error?.code).toBe(code);
    expect(typeof r.body.error.message).toBe('string');
    expect(r.headers['x-request-id']).toBeTruthy();
    expect(r.body.error.request_id).toBe(r.headers['x-request-id']);
    return r;
  }

  it('431 for headers over the limit, keeping a well-formed X-Request-Id', async () => {
    const raw = await rawRequest(
      t.url,
      `GET /v1/_probe/lang HTTP/1.1\r\nHost: x\r\nX-Request-Id: trace-431\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    const r = expectRawEnvelope(raw, 431, 'header_too_large');
    expect(r.headers['x-request-id']).toBe('trace-431');
  });

  it('431 for a URL over the limit', async () => {
    const raw = await rawRequest(t.url, `GET /v1/_probe/lang?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expectRawEnvelope(raw, 431, 'header_too_large');
  });

  it('400 for an unknown method', async () => {
    const raw = await rawRequest(t.url, `FOO /v1/_probe/lang HTTP/1.1\r\nHost: x\r\n\r\n`);
    const r = expectRawEnvelope(raw, 400, 'validation_error');
    expect(r.body.error.details.field).toBe('method');
  });

  it('400 for Content-Length together with Transfer-Encoding (a smuggling shape)', async () => {
    const raw = await rawRequest(
      t.url,
      'POST /v1/_probe/things HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        'Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    );
    const r = expectRawEnvelope(raw, 400, 'validation_error');
    expect(r.body.error.details.reason).toBe('conflicting_length');
  });
});

describe('the database error path never logs query parameters', () => {
  it('a secret sent into a failing query is in no log line; the failure itself is logged', async () => {
    const secret = `planted-secret-${Date.now()}`;
    const before = log.lines.length;
    const res = await http(t.url, 'GET', `/v1/_probe/lookup?id=${secret}`);
    const e = expectEnvelope(res, 500, 'internal_error');
    await log.requestDone(e.request_id);
    const lines = log.lines.slice(before).join('');
    expect(lines).toContain(e.request_id);
    expect(lines).toContain('22P02'); // the logged error keeps its SQLSTATE
    expect(lines).not.toContain(secret);
    expect(JSON.stringify(res.body)).not.toContain(secret);
  });
});
