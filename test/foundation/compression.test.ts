import { request as rawRequest, type IncomingHttpHeaders } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDemoCatalog } from '@guest/indexer';
import { readApi } from '@guest/read-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { generationKnown, metric, metricsText } from '../read-api/search/support.ts';

/**
 * DESIGN section 7, issue 35 point 12: JSON answers of 1 KB and more go Brotli- or gzip-coded to
 * a client that accepts it, and conditional requests (ETag, `version`) and the read API's answer
 * cache work as before. Read on the wire (node:http, which decodes nothing), on the demo catalog
 * whose dictionary, places and feed pages are the sizes a guest's browser gets.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    apps: [readApi],
    config: { SEARCH_CACHE_TTL_MS: 60_000, SEARCH_CACHE_GENERATION_POLL_MS: 1000 },
  });
  await loadDemoCatalog(t.runtime, { listings: 300, events: 10, progress: false });
  await generationKnown(t.url);
}, 120_000);
afterAll(async () => t?.close());

interface Raw {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as they came. */
  wire: Buffer;
  /** The body decoded by its Content-Encoding. */
  body: Buffer;
}

function get(path: string, headers: Record<string, string> = {}): Promise<Raw> {
  const u = new URL(t.url);
  return new Promise((resolve, reject) => {
    const req = rawRequest({ host: u.hostname, port: u.port, path, method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const wire = Buffer.concat(chunks);
        const coding = res.headers['content-encoding'];
        const body =
          coding === 'br' ? brotliDecompressSync(wire) : coding === 'gzip' ? gunzipSync(wire) : Buffer.from(wire);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, wire, body });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

const varyOf = (r: Raw) =>
  String(r.headers.vary ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase());

describe('compressed answers', () => {
  it.each([
    ['/v1/i18n?lang=en', 10_000],
    ['/v1/places', 5_000],
    ['/v1/search/listings?kind=stay&limit=20', 5_000],
  ])('%s: Brotli or gzip as accepted, the same JSON as the plain answer', async (path, least) => {
    const plain = await get(path);
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.wire.length).toBeGreaterThan(least);
    // The plain answer names the header too: a shared cache must not hand it to a Brotli client.
    expect(varyOf(plain)).toContain('accept-encoding');

    const br = await get(path, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(br.body.toString('utf8'))).toEqual(JSON.parse(plain.body.toString('utf8')));
    expect(br.wire.length).toBeLessThan(plain.wire.length / 3);
    expect(Number(br.headers['content-length'])).toBe(br.wire.length);
    expect(varyOf(br)).toContain('accept-encoding');

    const gz = await get(path, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gz.body.toString('utf8'))).toEqual(JSON.parse(plain.body.toString('utf8')));

    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    console.log(
      `[compression] ${path}: ${kb(plain.wire.length)}, br ${kb(br.wire.length)}, gzip ${kb(gz.wire.length)}`,
    );

    // A coding refused with q=0 is not sent; nothing acceptable: the plain answer.
    expect((await get(path, { 'accept-encoding': 'br;q=0, gzip' })).headers['content-encoding']).toBe('gzip');
    expect((await get(path, { 'accept-encoding': 'identity' })).headers['content-encoding']).toBeUndefined();
  });

  it('keeps ETag and 304 of the dictionary: a coded answer carries the weak form, which still matches', async () => {
    const plain = await get('/v1/i18n?lang=th');
    const strong = String(plain.headers.etag);
    expect(strong).toMatch(/^"[^"]+"$/);
    const coded = await get('/v1/i18n?lang=th', { 'accept-encoding': 'br' });
    expect(coded.headers.etag).toBe(`W/${strong}`);
    expect(varyOf(coded)).toEqual(expect.arrayContaining(['accept-language', 'accept-encoding']));

    for (const tag of [coded.headers.etag!, strong]) {
      const again = await get('/v1/i18n?lang=th', { 'accept-encoding': 'br', 'if-none-match': tag });
      expect(again.status, tag).toBe(304);
      expect(again.wire.length).toBe(0);
      expect(again.headers['content-encoding']).toBeUndefined();
      // The validator the full answer would carry to this client.
      expect(again.headers.etag).toBe(`W/${strong}`);
    }
    expect((await get('/v1/i18n?lang=th', { 'if-none-match': strong })).headers.etag).toBe(strong);
    const { version } = JSON.parse(plain.body.toString('utf8')) as { version: string };
    const byVersion = await get(`/v1/i18n?lang=th&version=${version}`, { 'accept-encoding': 'gzip' });
    expect(byVersion.status).toBe(304);
  });

  it('serves a feed page from the answer cache compressed, and the same bytes to every client', async () => {
    const path = '/v1/search/listings?kind=experience&limit=20';
    const hits = async () =>
      metric(await metricsText(t.url), 'search_answer_cache_requests_total', '{outcome="hit"}') ?? 0;
    const first = await get(path, { 'accept-encoding': 'br' });
    expect(first.headers['content-encoding']).toBe('br');
    const before = await hits();
    const second = await get(path, { 'accept-encoding': 'br' });
    const plain = await get(path);
    const gz = await get(path, { 'accept-encoding': 'gzip' });
    // All three from the cache (kept as the plain bytes, coded as each client accepts).
    expect((await hits()) - before).toBe(3);
    expect(second.headers['content-encoding']).toBe('br');
    expect(second.wire.equals(first.wire)).toBe(true);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(first.body)).toBe(true);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.body.equals(first.body)).toBe(true);
  });

  it('sends small answers as they are', async () => {
    const count = await get('/v1/search/count?kind=stay', { 'accept-encoding': 'br, gzip' });
    expect(count.status).toBe(200);
    expect(count.wire.length).toBeLessThan(1024);
    expect(count.headers['content-encoding']).toBeUndefined();
    const missing = await get('/v1/no-such-thing', { 'accept-encoding': 'br, gzip' });
    expect(missing.status).toBe(404);
    expect(missing.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(missing.body.toString('utf8')).error.code).toBe('not_found');
  });
});
