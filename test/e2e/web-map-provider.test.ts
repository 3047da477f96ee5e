import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { readApi } from '@guest/read-api';
import { webClient } from '@guest/server/web';
import { writeApi } from '@guest/write-api';
import { buildWeb } from '../../scripts/web-build.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { launchChromium, screenshot } from './web/browser.ts';

/**
 * With a map provider configured (`MAP_UPSTREAM_URL`), the web client's map uses the provider's
 * style through the API's proxy (`/v1/map/style.json`) instead of its offline base map. The
 * provider is the outside world: a local stand-in with a one-layer style.
 */
/** The page answers in its own time (two cores shared with the engine): wait up to 10 s by default. */
const poll = <T>(fn: () => T | Promise<T>, opts: { timeout?: number } = {}) =>
  expect.poll(fn, { timeout: 10_000, ...opts });

let t: TestApp;
let provider: Server;
let browser: Browser;
const providerSaw: string[] = [];

beforeAll(async () => {
  buildWeb({ ifStale: true, quiet: true });
  provider = createServer((req, res) => {
    providerSaw.push(req.url ?? '');
    if (req.url !== '/style.json') return void res.writeHead(404).end();
    const style = {
      version: 8,
      sources: {},
      layers: [{ id: 'bg', type: 'background', paint: { 'background-color': '#2b6f4f' } }],
    };
    res
      .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=60' })
      .end(JSON.stringify(style));
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  const { port } = provider.address() as { port: number };
  t = await startTestApp({
    apps: [writeApi, readApi, webClient],
    config: { MAP_UPSTREAM_URL: `http://127.0.0.1:${port}/` },
  });
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await new Promise((resolve) => provider?.close(resolve));
});

it("draws the provider's style through /v1/map when a provider is configured", { timeout: 60_000 }, async () => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const styleRequests: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('style.json')) styleRequests.push(new URL(r.url()).pathname);
  });
  await page.goto(`${t.url}/?lang=en`);
  const map = page.locator('.map');
  await poll(() => map.getAttribute('data-offline'), { timeout: 30_000 }).toBe('false');
  await page.locator('.map canvas').waitFor();
  // The page asked the API's proxy, never the provider itself; the proxy asked the provider.
  expect(styleRequests.length).toBeGreaterThan(0);
  expect(styleRequests.every((p) => p === '/v1/map/style.json')).toBe(true);
  expect(providerSaw).toContain('/style.json');
  await screenshot(page, 'map-provider-style');
  await context.close();
});
