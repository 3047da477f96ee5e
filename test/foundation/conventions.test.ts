import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { expectEnvelope, http } from '../support/http.ts';
import { eventually } from '../support/eventually.ts';
import { probeApp, slowRequestsInHandler } from './probe-app.ts';
import net from 'node:net';
import { once } from 'node:events';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ apps: [probeApp], config: { BODY_LIMIT_BYTES: 2048 } });
});
afterAll(async () => t?.close());

describe('error envelope', () => {
  it('answers an unknown route with 404 not_found in the envelope', async () => {
    const res = await http(t.url, 'GET', '/v1/no/such/route');
    const e = expectEnvelope(res, 404, 'not_found');
    expect(e.details.path).toBe('/v1/no/such/route');
  });

  it('answers a known path with a wrong method with 405 and Allow', async () => {
    const res = await http(t.url, 'DELETE', '/health');
    expectEnvelope(res, 405, 'method_not_allowed');
    expect(res.headers.get('allow')).toContain('GET');
  });

  it('takes an empty body sent as application/json for no body: a required body is 422, never malformed_json', async () => {
    for (const rawBody of ['', '  \r\n']) {
      const res = await http(t.url, 'POST', '/v1/_probe/things', {
        rawBody,
        headers: { 'content-type': 'application/json; charset=utf-8' },
      });
      expectEnvelope(res, 422, 'schema_invalid');
    }
  });

  it('answers malformed JSON with 400 validation_error on the body', async () => {
    const res = await http(t.url, 'POST', '/v1/_probe/things', {
      rawBody: '{"name": "x",',
      headers: { 'content-type': 'application/json' },
    });
    const e = expectEnvelope(res, 400, 'validation_error');
    expect(e.details.field).toBe('body');
  });

  it('answers an oversized body with 413 payload_too_large', async () => {
    const res = await http(t.url, 'POST', '/v1/_probe/things', { body: { name: 'x'.repeat(5000), count: 1 } });
    expectEnvelope(res, 413, 'payload_too_large');
  });

  it('answers a body that fails its schema with 422 schema_invalid naming the fields (G7a)', async () => {
    const res = await http(t.url, 'POST', '/v1/_probe/things', { body: { name: 'x', count: 'many' } });
    const e = expectEnvelope(res, 422, 'schema_invalid');
    expect(e.details.fields).toEqual(['count']);
  });

  it('answers a missing required body field with 422 naming it', async () => {
    const res = await http(t.url, 'POST', '/v1/_probe/things', { body: { count: 3 } });
    const e = expectEnvelope(res, 422, 'schema_invalid');
    expect(e.details.fields).toEqual(['name']);
  });

  it('answers a bad query parameter with 400 validation_error and details.field', async () => {
    const res = await http(t.url, 'GET', '/v1/_probe/query?n=zero');
    const e = expectEnvelope(res, 400, 'validation_error');
    expect(e.details.field).toBe('n');
    expect(e.details.fields).toEqual(['n']);
  });

  it('answers a path that is not valid percent-encoding with 400 on path, in the envelope with X-Request-Id', async () => {
    const res = await http(t.url, 'GET', '/v1/_probe/named/%E0%A4');
    const e = expectEnvelope(res, 400, 'validation_error');
    expect(e.details).toMatchObject({ field: 'path', reason: 'bad_encoding' });
    expect(res.headers.get('x-request-id')).toBe(e.request_id);
  });

  it('answers a path parameter over the length limit with 400 on path, in the envelope', async () => {
    const ok = await http(t.url, 'GET', `/v1/_probe/named/${'a'.repeat(50)}`);
    expect(ok.body).toEqual({ name: 'a'.repeat(50) });
    const res = await http(t.url, 'GET', `/v1/_probe/named/${'a'.repeat(500)}`);
    const e = expectEnvelope(res, 400, 'validation_error');
    expect(e.details).toMatchObject({ field: 'path', reason: 'too_long' });
    expect(res.headers.get('x-request-id')).toBe(e.request_id);
  });

  it('answers an unexpected exception with 500 internal_error and leaks nothing', async () => {
    const res = await http(t.url, 'GET', '/v1/_probe/boom');
    const e = expectEnvelope(res, 500, 'internal_error');
    expect(res.text).not.toContain('secret');
    expect(res.text).not.toContain('.ts');
    expect(e.details).toEqual({});
  });
});

describe('X-Request-Id', () => {
  it('is on every response, success or error, and matches the body', async () => {
    const ok = await http(t.url, 'GET', '/v1/_probe/lang');
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const err = await http(t.url, 'GET', '/nope');
    expect(err.body.error.request_id).toBe(err.headers.get('x-request-id'));
  });

  it('keeps a well-formed incoming id and replaces a malformed one', async () => {
    const kept = await http(t.url, 'GET', '/nope', { headers: { 'x-request-id': 'trace-abc.123:x' } });
    expect(kept.headers.get('x-request-id')).toBe('trace-abc.123:x');
    expect(kept.body.error.request_id).toBe('trace-abc.123:x');
    const replaced = await http(t.url, 'GET', '/nope', { headers: { 'x-request-id': 'bad id <script>' } });
    expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const tooLong = await http(t.url, 'GET', '/nope', { headers: { 'x-request-id': 'a'.repeat(200) } });
    expect(tooLong.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('Idempotency-Key', () => {
  const count = async () => Number((await t.sql.query('select count(*) from probe_things')).rows[0].count);

  it('replays the first response for a repeat with the same key and body, creating nothing', async () => {
    const before = await count();
    const headers = { 'idempotency-key': 'key-replay-0001' };
    const first = await http(t.url, 'POST', '/v1/_probe/things', { body: { name: 'a', count: 1 }, headers });
    const second = await http(t.url, 'POST', '/v1/_probe/things', { body: { count: 1, name: 'a' }, headers });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(await count()).toBe(before + 1);
  });

  it('answers 409 in_flight to a repeat while the first is still running', async () => {
    const headers = { 'idempotency-key': 'key-inflight-0001' };
    const body = { name: 'slow', count: 2 };
    const firstP = http(t.url, 'POST', '/v1/_probe/slow-things', { body, headers });
    await eventually('the first request to be in its handler', slowRequestsInHandler, { intervalMs: 10 });
    const second = await http(t.url, 'POST', '/v1/_probe/slow-things', { body, headers });
    const e = expectEnvelope(second, 409, 'conflict');
    expect(e.details.reason).toBe('in_flight');
    expect((await firstP).status).toBe(201);
    const third = await http(t.url, 'POST', '/v1/_probe/slow-things', { body, headers });
    expect(third.status).toBe(201);
    expect(third.body).toEqual((await firstP).body);
  });

  it('signed out: the key alone is the scope, so the same key with another body is 409 key_reused and creates nothing', async () => {
    // (Signed in, the key belongs to the account: test/write-api/idempotency.)
    const before = await count();
    const headers = { 'idempotency-key': 'key-reuse-00001' };
    const first = await http(t.url, 'POST', '/v1/_probe/things', { body: { name: 'b', count: 1 }, headers });
    expect(first.status).toBe(201);
    const other = await http(t.url, 'POST', '/v1/_probe/things', { body: { name: 'b', count: 2 }, headers });
    const e = expectEnvelope(other, 409, 'conflict');
    expect(e.details.reason).toBe('key_reused');
    expect(await count()).toBe(before + 1);
    // The same request again is still the replay of the first.
    const again = await http(t.url, 'POST', '/v1/_probe/things', { body: { name: 'b', count: 1 }, headers });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('accepts the quoted-string form of the key (IETF draft) as the same key', async () => {
    const before = await count();
    const body = { name: 'quoted', count: 1 };
    const bare = await http(t.url, 'POST', '/v1/_probe/things', {
      body,
      headers: { 'idempotency-key': 'quoted-key-0001' },
    });
    const quoted = await http(t.url, 'POST', '/v1/_probe/things', {
      body,
      headers: { 'idempotency-key': '"quoted-key-0001"' },
    });
    expect(bare.status).toBe(201);
    expect(quoted.status).toBe(201);
    expect(quoted.headers.get('idempotent-replayed')).toBe('true');
    expect(quoted.body).toEqual(bare.body);
    expect(await count()).toBe(before + 1);
    // A quoted key may hold what a bare one cannot (spaces, slashes).
    const spaced = await http(t.url, 'POST', '/v1/_probe/things', {
      body,
      headers: { 'idempotency-key': '"order 17/b, try 1"' },
    });
    expect(spaced.status).toBe(201);
  });

  it('a replay carries the id of the request it answers, in the header', async () => {
    const headers = { 'idempotency-key': 'key-request-id-1' };
    const first = await http(t.url, 'POST', '/v1/_probe/things', { body: { name: 'rid', count: 1 }, headers });
    const second = await http(t.url, 'POST', '/v1/_probe/things', {
      body: { name: 'rid', count: 1 },
      headers: { ...headers, 'x-request-id': 'replay-request-0001' },
    });
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.headers.get('x-request-id')).toBe('replay-request-0001');
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));
  });

  it('rejects a malformed key with 400 naming the header', async () => {
    const res = await http(t.url, 'POST', '/v1/_probe/things', {
      body: { name: 'c', count: 1 },
      headers: { 'idempotency-key': 'short' },
    });
    const e = expectEnvelope(res, 400, 'validation_error');
    expect(e.details.field).toBe('Idempotency-Key');
  });

  it('does not store a failed request: the same key can be used after a 422', async () => {
    const headers = { 'idempotency-key': 'key-after-422-01' };
    const bad = await http(t.url, 'POST', '/v1/_probe/things', { body: { name: 'd' }, headers });
    expect(bad.status).toBe(422);
    const good = await http(t.url, 'POST', '/v1/_probe/things', { body: { name: 'd', count: 1 }, headers });
    expect(good.status).toBe(201);
  });
});

describe('cursor pagination', () => {
  it('walks every item exactly once and ends with has_more false', async () => {
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const q: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const res = await http(t.url, 'GET', `/v1/_probe/items?limit=10${q}`);
      expect(res.status).toBe(200);
      seen.push(...res.body.items.map((i: { id: number }) => i.id));
      cursor = res.body.next_cursor;
      expect(res.body.has_more).toBe(cursor !== null);
    } while (cursor);
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
  });

  it('rejects a tampered cursor with 400 validation_error on cursor', async () => {
    const first = await http(t.url, 'GET', '/v1/_probe/items?limit=5');
    const [payload, sig] = (first.body.next_cursor as string).split('.');
    const forged = Buffer.from(JSON.stringify({ s: 'probe-items', d: { after: 20 } })).toString('base64url');
    for (const bad of [`${forged}.${sig}`, `${payload}.${sig!.slice(0, -2)}xx`, 'garbage', `${payload}`]) {
      const res = await http(t.url, 'GET', `/v1/_probe/items?cursor=${encodeURIComponent(bad)}`);
      const e = expectEnvelope(res, 400, 'validation_error');
      expect(e.details.field).toBe('cursor');
    }
  });

  it('rejects a cursor of another list', async () => {
    const foreign = t.app.cursors.encode('another-list', { after: 3 });
    const res = await http(t.url, 'GET', `/v1/_probe/items?cursor=${encodeURIComponent(foreign)}`);
    const e = expectEnvelope(res, 400, 'validation_error');
    expect(e.details).toMatchObject({ field: 'cursor', reason: 'foreign' });
  });

  it('enforces limit bounds', async () => {
    for (const bad of ['0', '101', 'x', '2.5']) {
      const res = await http(t.url, 'GET', `/v1/_probe/items?limit=${bad}`);
      expect(expectEnvelope(res, 400, 'validation_error').details.field).toBe('limit');
    }
  });
});

describe('language negotiation', () => {
  const cases: Array<[string, Record<string, string>, string]> = [
    ['?lang=ru', {}, 'ru'],
    ['?lang=zh-Hans', { 'accept-language': 'ru' }, 'zh-Hans'],
    ['', { 'accept-language': 'de-DE, th;q=0.9, en;q=0.8' }, 'th'],
    ['', { 'accept-language': 'en;q=0.5, ru;q=0.9' }, 'ru'],
    ['', { 'accept-language': 'zh-CN,zh;q=0.9' }, 'zh-Hans'],
    ['', { 'accept-language': 'zh-Hans-CN' }, 'zh-Hans'],
    ['', { 'accept-language': 'zh' }, 'zh-Hans'],
    ['', { 'accept-language': 'fr, de' }, 'en'],
    ['?lang=xx', { 'accept-language': 'ru' }, 'ru'],
    ['', {}, 'en'],
  ];
  for (const [q, headers, want] of cases) {
    it(`${q || '(no lang)'} ${headers['accept-language'] ?? ''} → ${want}`, async () => {
      const res = await http(t.url, 'GET', `/v1/_probe/lang${q}`, { headers });
      expect(res.body.lang).toBe(want);
    });
  }
});

describe('OpenAPI and docs', () => {
  it('serves an OpenAPI 3.1 document with the interface version label', async () => {
    const res = await http(t.url, 'GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    expect(res.body.info.version).toMatch(/^\d{2}\.\d{2}\.\d{2}$/);
    expect(res.body.paths['/health'].get.responses).toHaveProperty('503');
  });

  it('serves a human documentation page at /docs', async () => {
    const res = await fetch(`${t.url}/docs/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
  });
});

describe('graceful shutdown', () => {
  it('lets an in-flight request finish when the server closes', async () => {
    const local = await startTestApp({ apps: [probeApp] });
    const inFlight = http(local.url, 'POST', '/v1/_probe/slow-things', { body: { name: 'g', count: 1 } });
    await eventually('the request to be in its handler', slowRequestsInHandler, { intervalMs: 10 });
    await local.app.close();
    const res = await inFlight;
    expect(res.status).toBe(201);
    await local.close();
  });

  it('while closing, the in-flight answer ends its connection, so a request pipelined behind it is never half-served', async () => {
    const local = await startTestApp({ apps: [probeApp] });
    const { port } = new URL(local.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    await once(socket, 'connect');
    let raw = '';
    socket.on('data', (d) => (raw += d.toString('latin1')));
    const body = JSON.stringify({ name: 'g', count: 1 });
    socket.write(
      `POST /v1/_probe/slow-things HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}` +
        `GET /v1/_probe/lang HTTP/1.1\r\nhost: x\r\n\r\n`,
    );
    await eventually('the first request to be in its handler', slowRequestsInHandler, { intervalMs: 10 });
    await Promise.all([local.app.close(), once(socket, 'close')]);
    const answers = raw.split(/(?=HTTP\/1\.1 )/);
    // The client sees a closed connection for the second request and retries it elsewhere.
    expect(answers.map((a) => a.slice(0, 12))).toEqual(['HTTP/1.1 201']);
    expect(answers[0]!.toLowerCase()).toContain('connection: close');
    await local.close();
  });
});
