import { createServer, request as rawRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readApi } from '@guest/read-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { expectEnvelope, http } from '../support/http.ts';

/**
 * A stand-in for the map provider (the outside world): a local HTTP server that records every
 * request it receives and answers per path as a real provider would.
 */
interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

const STYLE = JSON.stringify({ version: 8, name: 'stand-in', sources: {}, layers: [] });
const TILE = Buffer.from('\x1a\x03abc-vector-tile-bytes', 'binary');
const SPRITE_PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)]);
const LAST_MODIFIED = 'Wed, 21 Oct 2026 07:28:00 GMT';

function startUpstream() {
  const seen: Seen[] = [];
  let releaseBig: () => void = () => {};
  const bigReleased = new Promise<void>((r) => (releaseBig = r));
  const server: Server = createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    const url = req.url ?? '';
    if (url === '/style.json') {
      if (req.headers['if-none-match'] === '"style-v1"') {
        res.writeHead(304, { etag: '"style-v1"', 'cache-control': 'public, max-age=3600' });
        return res.end();
      }
      res.writeHead(200, {
        'content-type': 'application/json',
        'cache-control': 'public, max-age=3600',
        etag: '"style-v1"',
        'last-modified': LAST_MODIFIED,
        expires: 'Thu, 01 Jan 2037 00:00:00 GMT',
        'x-internal-server': 'tile-node-7',
        'set-cookie': 'provider_session=abc',
      });
      return res.end(STYLE);
    }
    if (url === '/tiles/3/2/1.pbf') {
      res.writeHead(200, {
        'content-type': 'application/x-protobuf',
        'content-encoding': 'gzip',
        'cache-control': 'public, max-age=86400',
        etag: 'W/"tile-3-2-1"',
        vary: 'Accept-Encoding',
      });
      return res.end(gzipSync(TILE));
    }
    if (url === '/tiles/7/0/0.pbf') {
      res.writeHead(204, { 'cache-control': 'public, max-age=600' });
      return res.end();
    }
    if (url === '/sprites/sprite@2x.png') {
      if (req.headers['if-modified-since'] === LAST_MODIFIED) {
        res.writeHead(304, { 'last-modified': LAST_MODIFIED });
        return res.end();
      }
      res.writeHead(200, { 'last-modified': LAST_MODIFIED }); // no content-type: the proxy names it
      return res.end(SPRITE_PNG);
    }
    if (url === '/sprites/big.png') {
      // Sends the first half, then waits until the test has read it through the proxy.
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(2 * 256 * 1024) });
      res.write(Buffer.alloc(256 * 1024, 1));
      void bigReleased.then(() => res.end(Buffer.alloc(256 * 1024, 2)));
      return;
    }
    if (
      url.startsWith('/fonts/') ||
      url.startsWith('/relief/') ||
      ['/tiles.json', '/relief.json', '/sprites/sprite.json'].includes(url)
    ) {
      res.writeHead(200, { 'content-type': url.endsWith('.json') ? 'application/json' : 'application/octet-stream' });
      return res.end(url.endsWith('.json') ? '{"tilejson":"3.0.0","tiles":[]}' : 'bytes');
    }
    if (url === '/tiles/5/0/0.pbf') {
      res.writeHead(500, { 'content-type': 'text/plain' });
      return res.end('provider stack trace at /srv/tiles.go:42');
    }
    if (url === '/tiles/5/1/0.pbf') {
      res.writeHead(403, { 'content-type': 'text/plain' });
      return res.end('bad key');
    }
    if (url === '/tiles/6/0/0.pbf') return; // never answers
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('no such tile');
  });
  return new Promise<{ url: string; seen: Seen[]; releaseBig: () => void; close(): Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        seen,
        releaseBig: () => releaseBig(),
        close: () =>
          new Promise((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      });
    });
  });
}

/** Sends the path exactly as written (fetch would normalise `..` and `//` away before sending). */
function raw(base: string, path: string, headers: Record<string, string> = {}) {
  const u = new URL(base);
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = rawRequest({ host: u.hostname, port: u.port, path, method: 'GET', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

let upstream: Awaited<ReturnType<typeof startUpstream>>;
let t: TestApp;
beforeAll(async () => {
  upstream = await startUpstream();
  t = await startTestApp({
    apps: [readApi],
    config: { MAP_UPSTREAM_URL: `${upstream.url}/`, MAP_UPSTREAM_TIMEOUT_MS: 300, MAP_MAX_ZOOM: 18 },
  });
});
afterAll(async () => {
  await t?.close();
  await upstream?.close();
});
beforeEach(() => {
  upstream.seen.length = 0;
});

describe('GET /v1/map/{path}: passes the provider body and caching headers through', () => {
  it('passes the style with its caching headers, and nothing else of the provider', async () => {
    const res = await http(t.url, 'GET', '/v1/map/style.json?url=http://evil.example/', {
      headers: { cookie: 'session=guest', authorization: 'Bearer guest-token' },
    });
    expect(res.status).toBe(200);
    expect(res.text).toBe(STYLE);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(res.headers.get('etag')).toBe('"style-v1"');
    expect(res.headers.get('last-modified')).toBe(LAST_MODIFIED);
    expect(res.headers.get('expires')).toBe('Thu, 01 Jan 2037 00:00:00 GMT');
    expect(res.headers.get('x-internal-server')).toBeNull();
    expect(res.headers.get('set-cookie')).toBeNull();
    // The query string and the guest's credentials never go to the provider.
    expect(upstream.seen).toHaveLength(1);
    expect(upstream.seen[0]!.url).toBe('/style.json');
    expect(upstream.seen[0]!.headers.cookie).toBeUndefined();
    expect(upstream.seen[0]!.headers.authorization).toBeUndefined();
  });

  it('passes a compressed tile byte for byte with its Content-Encoding', async () => {
    const res = await raw(t.url, '/v1/map/tiles/3/2/1.pbf', { 'accept-encoding': 'gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers['content-type']).toBe('application/x-protobuf');
    expect(res.headers.etag).toBe('W/"tile-3-2-1"');
    expect(res.headers.vary).toContain('Accept-Encoding');
    expect(res.body.equals(gzipSync(TILE))).toBe(true);
    expect(upstream.seen[0]!.headers['accept-encoding']).toBe('gzip');
    // A fetch client decodes it to the original tile.
    const decoded = await fetch(`${t.url}/v1/map/tiles/3/2/1.pbf`);
    expect(Buffer.from(await decoded.arrayBuffer()).equals(TILE)).toBe(true);
  });

  it('forwards If-None-Match and passes the provider 304 back with no body', async () => {
    const res = await raw(t.url, '/v1/map/style.json', { 'if-none-match': '"style-v1"' });
    expect(res.status).toBe(304);
    expect(res.body.length).toBe(0);
    expect(res.headers.etag).toBe('"style-v1"');
    expect(res.headers['cache-control']).toBe('public, max-age=3600');
    expect(upstream.seen[0]!.headers['if-none-match']).toBe('"style-v1"');
  });

  it('forwards If-Modified-Since; names the content type when the provider does not', async () => {
    const full = await raw(t.url, '/v1/map/sprites/sprite@2x.png');
    expect(full.status).toBe(200);
    expect(full.headers['content-type']).toBe('image/png');
    expect(full.body.equals(SPRITE_PNG)).toBe(true);
    const again = await raw(t.url, '/v1/map/sprites/sprite@2x.png', { 'if-modified-since': LAST_MODIFIED });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(upstream.seen[1]!.headers['if-modified-since']).toBe(LAST_MODIFIED);
  });

  it('answers HEAD with the provider headers and no body, asking the provider with HEAD too', async () => {
    const res = await fetch(`${t.url}/v1/map/style.json`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"style-v1"');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(await res.text()).toBe('');
    expect(upstream.seen.map((s) => `${s.method} ${s.url}`)).toEqual(['HEAD /style.json']);
  });

  it('passes an empty tile (204) through', async () => {
    const res = await raw(t.url, '/v1/map/tiles/7/0/0.pbf');
    expect(res.status).toBe(204);
    expect(res.headers['cache-control']).toBe('public, max-age=600');
  });

  it('streams the body: the client reads the first half before the provider has sent the rest', async () => {
    const res = await fetch(`${t.url}/v1/map/sprites/big.png`);
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    let received = 0;
    while (received < 256 * 1024) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`body ended after ${received} bytes`);
      received += value.length;
    }
    upstream.releaseBig(); // only now does the provider send the second half
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      received += value.length;
    }
    expect(received).toBe(512 * 1024);
  });

  it('serves every allowed resource shape, each reaching the provider at the same path', async () => {
    const paths = [
      'tiles.json',
      'relief.json',
      'relief/2/1/3.webp',
      'relief/12/4095/0.png',
      'fonts/Open%20Sans%20Regular,Arial%20Unicode%20MS%20Regular/0-255.pbf',
      'fonts/Noto_Sans-Bold/65280-65535.pbf',
      'sprites/sprite.json',
    ];
    for (const p of paths) {
      const res = await raw(t.url, `/v1/map/${p}`);
      expect(res.status, p).toBe(200);
    }
    expect(upstream.seen.map((s) => s.url)).toEqual([
      '/tiles.json',
      '/relief.json',
      '/relief/2/1/3.webp',
      '/relief/12/4095/0.png',
      '/fonts/Open%20Sans%20Regular,Arial%20Unicode%20MS%20Regular/0-255.pbf',
      '/fonts/Noto_Sans-Bold/65280-65535.pbf',
      '/sprites/sprite.json',
    ]);
  });
});

describe('GET /v1/map/{path}: only allowed shapes, nothing else reaches the provider', () => {
  const refused = [
    '/v1/map/',
    '/v1/map/../../etc/passwd',
    '/v1/map/tiles/../../../etc/passwd',
    '/v1/map/tiles/..%2F..%2Fsecret.pbf',
    '/v1/map/tiles%2F1%2F0%2F0.pbf',
    '/v1/map/tiles/1/0/0.pbf%2F..',
    '/v1/map/%2e%2e/style.json',
    '/v1/map/./style.json',
    '/v1/map/tiles\\1\\0\\0.pbf',
    '/v1/map/tiles/1/0/0.pbf%5C..',
    '/v1/map/http://evil.example/style.json',
    '/v1/map/http%3A%2F%2Fevil.example%2Fstyle.json',
    '/v1/map//evil.example/style.json',
    '/v1/map/style.json/',
    '/v1/map/admin/config.json',
    '/v1/map/STYLE.JSON',
    '/v1/map/tiles/3/8/0.pbf',
    '/v1/map/tiles/3/0/8.pbf',
    '/v1/map/tiles/19/0/0.pbf',
    '/v1/map/tiles/01/0/0.pbf',
    '/v1/map/tiles/-1/0/0.pbf',
    '/v1/map/tiles/1/0/0.svg',
    '/v1/map/tiles/1/0/0.pbf.gz',
    '/v1/map/tiles/1/0.pbf',
    '/v1/map/relief/1/0/0.pbf',
    '/v1/map/fonts/Open%20Sans/1-256.pbf',
    '/v1/map/fonts/Open%20Sans/0-511.pbf',
    '/v1/map/fonts/Open%20Sans/65536-65791.pbf',
    '/v1/map/fonts/..%252F/0-255.pbf',
    '/v1/map/fonts/a%00b/0-255.pbf',
    '/v1/map/sprites/../sprite.png',
    '/v1/map/sprites/sprite.svg',
    '/v1/map/sprites/sub/sprite.png',
  ];

  it.each(refused)('%s is 404 not_found', async (path) => {
    const res = await raw(t.url, path);
    expect(res.status, `${path} → ${res.status} ${res.body.toString().slice(0, 200)}`).toBe(404);
    const body = JSON.parse(res.body.toString());
    expect(body.error.code).toBe('not_found');
    expect(body.error.request_id).toBe(res.headers['x-request-id']);
    expect(upstream.seen, `${path} reached the provider`).toEqual([]);
  });
});

describe('GET /v1/map/{path}: provider failures in the envelope', () => {
  it('turns a provider 404 into 404 not_found', async () => {
    const e = expectEnvelope(await http(t.url, 'GET', '/v1/map/tiles/4/0/0.png'), 404, 'not_found');
    expect(e.details.upstream_status).toBe(404);
    expect(upstream.seen).toHaveLength(1);
  });

  it('turns a provider 5xx into 502 bad_gateway without leaking its body', async () => {
    const res = await http(t.url, 'GET', '/v1/map/tiles/5/0/0.pbf');
    expect(expectEnvelope(res, 502, 'bad_gateway').details.upstream_status).toBe(500);
    expect(res.text).not.toContain('tiles.go');
  });

  it('turns a provider refusal (403, e.g. a bad key of ours) into 502 bad_gateway', async () => {
    expect(
      expectEnvelope(await http(t.url, 'GET', '/v1/map/tiles/5/1/0.pbf'), 502, 'bad_gateway').details.upstream_status,
    ).toBe(403);
  });

  it('answers 504 gateway_timeout when the provider does not answer within MAP_UPSTREAM_TIMEOUT_MS', async () => {
    expectEnvelope(await http(t.url, 'GET', '/v1/map/tiles/6/0/0.pbf'), 504, 'gateway_timeout');
    expect(upstream.seen.map((s) => s.url)).toEqual(['/tiles/6/0/0.pbf']);
  });

  it('answers 502 bad_gateway when the provider refuses connections', async () => {
    const gone = await startUpstream();
    await gone.close(); // the port is now closed
    const app = await startTestApp({ apps: [readApi], config: { MAP_UPSTREAM_URL: gone.url } });
    try {
      const e = expectEnvelope(await http(app.url, 'GET', '/v1/map/style.json'), 502, 'bad_gateway');
      expect(e.details.upstream).toBe('map');
    } finally {
      await app.close();
    }
  });
});

describe('GET /v1/map/{path}: the provider address', () => {
  it('keeps the path of MAP_UPSTREAM_URL in front of the resource path', async () => {
    const app = await startTestApp({ apps: [readApi], config: { MAP_UPSTREAM_URL: `${upstream.url}/maps/v3//` } });
    try {
      expectEnvelope(await http(app.url, 'GET', '/v1/map/tiles/1/1/0.pbf'), 404, 'not_found'); // the stand-in has no such path
      expect(upstream.seen.map((s) => s.url)).toEqual(['/maps/v3/tiles/1/1/0.pbf']);
    } finally {
      await app.close();
    }
  });

  it('refuses to start with a provider address that is not http(s) or carries a query', async () => {
    await expect(
      startTestApp({ apps: [readApi], config: { MAP_UPSTREAM_URL: 'ftp://tiles.example' } }),
    ).rejects.toThrow(/MAP_UPSTREAM_URL/);
    await expect(
      startTestApp({ apps: [readApi], config: { MAP_UPSTREAM_URL: 'https://tiles.example/?key=1' } }),
    ).rejects.toThrow(/MAP_UPSTREAM_URL/);
    await expect(startTestApp({ apps: [readApi], config: { MAP_UPSTREAM_URL: 'tiles here' } })).rejects.toThrow(
      /MAP_UPSTREAM_URL: not a URL/,
    );
  });
});

describe('GET /v1/map/{path}: own rate limit', () => {
  it('counts map resources in their own per-address bucket, apart from the rest of the API', async () => {
    const app = await startTestApp({
      apps: [readApi],
      config: { MAP_UPSTREAM_URL: upstream.url, MAP_RATE_LIMIT_PER_MIN: 2, RATE_LIMIT_ADDRESS_PER_MIN: 3 },
    });
    try {
      expect((await http(app.url, 'GET', '/v1/map/style.json')).status).toBe(200);
      expect((await http(app.url, 'GET', '/v1/map/tiles.json')).status).toBe(200);
      const third = await http(app.url, 'GET', '/v1/map/style.json');
      expect(expectEnvelope(third, 429, 'rate_limited').details.scope).toBe('map');
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
      // The general budget (3 a minute here) was not spent by the map requests.
      for (let i = 0; i < 3; i++) expect((await http(app.url, 'GET', '/v1/i18n/languages')).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('OpenAPI', () => {
  it('documents the map route with its path shapes and error statuses', async () => {
    const doc = (await http(t.url, 'GET', '/v1/openapi.json')).body;
    // A parameter generators can use: `path`, slashes allowed (not Fastify's `*`).
    const op = doc.paths['/v1/map/{path}']?.get;
    expect(op, Object.keys(doc.paths).join(', ')).toBeDefined();
    expect(op.parameters.find((p: { in: string }) => p.in === 'path')?.name).toBe('path');
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '304', '404', '502', '504']));
    expect(JSON.stringify(op.parameters)).toContain('tiles/{z}/{x}/{y}');
  });
});
