import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import type { Runtime } from '@guest/runtime';
import { runAll } from '@guest/server/run-all';
import { createIsolatedEnv, type IsolatedEnv } from '../support/isolated-env.ts';
import { launchChromium } from './web/browser.ts';

/*
 * The documentation as a reader meets it on the one-base-URL server: Swagger UI at `/docs` and
 * the socket protocol at `/docs/socket`, linked from the API reference's description and rendered
 * from the AsyncAPI document. Both in headless Chromium with their own Content-Security-Policy
 * (hashes, no 'unsafe-inline'): no console error, no CSP violation, and the page names every
 * message of the document with its fields, the close codes and how to renew.
 */
let env: IsolatedEnv;
let app: FastifyInstance;
let runtime: Runtime;
let base: string;
let browser: Browser;

beforeAll(async () => {
  env = await createIsolatedEnv();
  ({ app, runtime } = await runAll({ ...env.config, PORT: 0, REALTIME_PORT: 0, LOG_LEVEL: 'silent' }));
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await runtime?.close();
  await env?.close();
});

/** A page that records console errors, uncaught errors and CSP violations as they happen. */
async function watched(): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${String(e)}`));
  page.on('requestfailed', (r) => problems.push(`request failed: ${r.url()}`));
  // Init scripts run outside the page's CSP, so they see its violations without being one.
  await page.addInitScript({
    content: `document.addEventListener('securitypolicyviolation', (e) =>
      console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI + ' ' + e.sourceFile + ':' + e.lineNumber));`,
  });
  return { page, problems };
}

it('serves both pages under a CSP without unsafe-inline', async () => {
  for (const path of ['/docs', '/docs/socket']) {
    const res = await fetch(`${base}${path}`, { redirect: 'follow' });
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/style-src [^;]*'sha256-/);
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
  }
});

it('opens /docs without a console error and follows its link to the socket protocol', async () => {
  const { page, problems } = await watched();
  await page.goto(`${base}/docs`);
  // The API reference has rendered (an operation is listed) and names the socket page.
  await page.locator('#operations-auth-login').waitFor({ timeout: 30_000 });
  // Swagger UI's topbar logo writes its own <style>: allowed by its hash, so no violation.
  await page.locator('.topbar svg').first().waitFor({ timeout: 5_000 });
  const links = await page.locator('.info .description a').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  expect(links).toContain('/docs/socket');
  expect(problems).toEqual([]);

  // The link opens a new tab in Swagger UI; the same address, opened here, is the socket page.
  await page.goto(new URL('/docs/socket', base).href);
  expect(await page.locator('h1').innerText()).toMatch(/socket/i);
  expect(problems).toEqual([]);
  await page.close();
});

it('renders every message of the AsyncAPI document with its fields, the close codes and renewal', async () => {
  const doc = (await (await fetch(`${base}/v1/asyncapi.json`)).json()) as {
    components: { messages: Record<string, { payload: { properties: { data: { properties?: object } } } }> };
    channels: { socket: { 'x-close-codes': Array<{ code: number }> } };
  };
  const { page, problems } = await watched();
  await page.goto(`${base}/docs/socket`);
  const text = await page.locator('body').innerText();
  for (const [type, message] of Object.entries(doc.components.messages)) {
    const section = page.locator(`#message-${type.replace('.', '\\.')}`);
    expect(await section.locator('h3').innerText()).toBe(type);
    for (const field of Object.keys(message.payload.properties.data.properties ?? {}))
      expect(await section.locator('table').innerText()).toContain(field);
  }
  for (const { code } of doc.channels.socket['x-close-codes']) expect(text).toContain(String(code));
  expect(text).toMatch(/Expiry and renewal/);
  expect(text).toContain('auth.renew');
  // The fields of a message the server sends, as a client reads them.
  const restricted = await page.locator('#message-account\\.restricted table').innerText();
  expect(restricted).toMatch(/kind\s+"login" \| "booking" \| "messaging" \| "reviews"\s+yes/);
  expect(restricted).toMatch(/until\s+string \(date-time\) or null\s+yes/);
  expect(problems).toEqual([]);
  await page.close();
});
