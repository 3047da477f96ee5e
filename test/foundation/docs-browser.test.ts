import { existsSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { readApi } from '@guest/read-api';
import { writeApi } from '@guest/write-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/**
 * `/docs` as a person sees it (issue 10, 8): Debian's Chromium, headless, opens the docs over
 * plain HTTP on a host name that is not localhost (browsers treat loopback addresses as secure,
 * which would hide an `upgrade-insecure-requests` in the CSP), and reads the login request body's
 * fields in the rendered schema. Needs the `chromium` package (`apt-get install -y chromium`).
 */
const CHROMIUM = '/usr/bin/chromium';
const HOST = 'guest-docs.test';

let t: TestApp;
let browser: Browser;
beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  t = await startTestApp({ apps: [writeApi, readApi] });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      // The host name resolves to the test app's loopback address, as a LAN or VM name would.
      `--host-resolver-rules=MAP ${HOST} 127.0.0.1`,
    ],
  });
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
});

it('renders the login request body with its fields over plain HTTP on a host name', async () => {
  const page = await browser.newPage();
  const failed: string[] = [];
  const consoleErrors: string[] = [];
  page.on('requestfailed', (req) => failed.push(req.url()));
  page.on('console', (m) => {
    if (m.type() === 'error') consoleErrors.push(m.text());
  });
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  const port = new URL(t.url).port;
  await page.goto(`http://${HOST}:${port}/docs`);

  const login = page.locator('#operations-auth-login');
  await login.locator('.opblock-summary').click();
  const body = login.locator('.opblock-section-request-body');
  await body.getByText('Schema', { exact: true }).click();
  const model = body.locator('.model-box');
  // One row per property, its name first: the body is an object with fields, not "string".
  await expect.poll(async () => model.innerText(), { timeout: 15_000 }).toMatch(/^email/m);
  expect(await model.innerText()).toMatch(/^password/m);
  expect(failed).toEqual([]);
  expect(consoleErrors).toEqual([]);
});
