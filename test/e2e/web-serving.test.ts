import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readApi } from '@guest/read-api';
import { PAGE_PATHS, WEB_DIST, webClient } from '@guest/server/web';
import { writeApi } from '@guest/write-api';
import { buildWeb } from '../../scripts/web-build.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { expectEnvelope, http } from '../support/http.ts';

/**
 * The web client beside the API behind one base URL: its screens' paths answer the page (with
 * its CSP), its hashed files are cached for good, and the API's own answers are unchanged (an
 * unknown API path is still the 404 envelope, a wrong method still 405).
 */
let t: TestApp;
beforeAll(async () => {
  buildWeb({ ifStale: true, quiet: true });
  t = await startTestApp({ apps: [writeApi, readApi, webClient] });
});
afterAll(async () => t?.close());

it('answers every screen path with the page, not cached, under its CSP', async () => {
  for (const p of PAGE_PATHS) {
    const url = p.replace('*', 'some-slug');
    const res = await fetch(`${t.url}${url}?lang=ru`);
    expect(res.status, url).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    // Photos the API makes come from its public origin, whichever host name the page was opened on.
    expect(res.headers.get('content-security-policy')).toContain(`img-src 'self' ${new URL(t.url).origin} `);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(await res.text()).toContain('<div id="app">');
  }
});

it('serves the built files with their type, cached for good; anything else there is the 404 envelope', async () => {
  const files = await readdir(path.join(WEB_DIST, 'assets'));
  // A script the build compressed (MapLibre is one).
  const js = files
    .filter((f) => f.endsWith('.js') && files.includes(`${f}.br`))
    .sort()
    .at(-1)!;
  const res = await fetch(`${t.url}/assets/${js}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/javascript/);
  expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  // Compressed at build time: Brotli or gzip as the browser accepts, the same bytes once decoded.
  const plain = await readFile(path.join(WEB_DIST, 'assets', js));
  for (const encoding of ['br', 'gzip']) {
    const packed = await fetch(`${t.url}/assets/${js}`, { headers: { 'accept-encoding': encoding } });
    expect(packed.headers.get('content-encoding')).toBe(encoding);
    expect(packed.headers.get('vary')).toMatch(/accept-encoding/i);
    expect(Buffer.from(await packed.arrayBuffer()).equals(plain)).toBe(true);
  }
  expectEnvelope(await http(t.url, 'GET', '/assets/nope.js'), 404, 'not_found');
  expectEnvelope(await http(t.url, 'GET', '/assets/..%2Fpackage.json'), 404, 'not_found');
});

it("answers a browser's page request for an unknown address with the page and 404, anything else with the envelope", async () => {
  const html = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
  for (const url of ['/no-such-page', '/no/such/page?lang=ru', '/events-typo']) {
    const res = await fetch(`${t.url}${url}`, { headers: html });
    expect(res.status, url).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(await res.text()).toContain('<div id="app">');
  }
  // The API's and the files' paths stay JSON, whatever the client accepts; so do other methods.
  for (const url of ['/v1/no-such-thing', '/assets/nope.js', '/demo-photos/v1/nope.webp']) {
    expectEnvelope(await http(t.url, 'GET', url, { headers: html }), 404, 'not_found');
  }
  expectEnvelope(await http(t.url, 'POST', '/no-such-page', { headers: html, body: {} }), 404, 'not_found');
});

it('leaves the API as it was: unknown paths 404, wrong methods 405, all with the envelope', async () => {
  expectEnvelope(await http(t.url, 'GET', '/v1/nope'), 404, 'not_found');
  expectEnvelope(await http(t.url, 'GET', '/nope'), 404, 'not_found');
  expectEnvelope(await http(t.url, 'POST', '/events'), 405, 'method_not_allowed');
  const openapi = await http(t.url, 'GET', '/v1/openapi.json');
  expect(
    Object.keys(openapi.body.paths).some((p: string) => !p.startsWith('/v1/') && !/^\/(health|livez|readyz)$/.test(p)),
  ).toBe(false);
});
