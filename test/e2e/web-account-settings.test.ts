import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readApi } from '@guest/read-api';
import { webClient } from '@guest/server/web';
import { writeApi } from '@guest/write-api';
import { DEMO_ACCOUNT, ensureDemoAccount } from '@guest/write-api/demo';
import { buildWeb } from '../../scripts/web-build.ts';
import { http } from '../support/http.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { launchChromium, screenshot } from './web/browser.ts';

/**
 * The account's settings screens of the web client in headless Chromium against the API, signed
 * in as the demo account (email confirmed): password change end to end, sessions named by browser
 * and system, an avatar that is not an image refused on its field.
 */
const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 15_000 });
const NEW_PASSWORD = 'lantern harbor quietly 84 plums';

let t: TestApp;
let browser: Browser;
let context: BrowserContext;
let password: string = DEMO_ACCOUNT.password;

beforeAll(async () => {
  buildWeb({ ifStale: true, quiet: true });
  t = await startTestApp({ apps: [writeApi, readApi, webClient], config: { RATE_LIMIT_LOGIN_PER_MIN: 1000 } });
  await ensureDemoAccount(t.runtime.database.db, t.config, t.runtime.clock.now());
  browser = await launchChromium();
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
});
afterEach(async () => {
  await context?.close();
});

/** A new browser signed in through the sign-in page, on `next`. */
async function signedIn(next: string, locale = 'en-US'): Promise<Page> {
  context = await browser.newContext({ viewport: { width: 1100, height: 900 }, locale });
  const page = await context.newPage();
  page.on('pageerror', (err) => console.error(`[page] ${err.message}`));
  await page.goto(`${t.url}/sign-in?lang=en&next=${encodeURIComponent(next)}`);
  await page.getByLabel('Email', { exact: true }).fill(DEMO_ACCOUNT.email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.locator('main form button[type="submit"]').click();
  await page.waitForURL((u) => u.pathname === next);
  return page;
}

const axeSource = () => readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core on the page as it stands: the rules' ids of critical violations (none expected). */
async function criticalViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(await axeSource());
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string }> }> } }
    ).axe;
    return (await axe.run()).violations;
  });
  return violations.filter((v) => v.impact === 'critical').map((v) => v.id);
}

const login = (pw: string) =>
  http(t.url, 'POST', '/v1/auth/login', { body: { email: DEMO_ACCOUNT.email, password: pw } });

describe('account settings in the browser', { timeout: 120_000 }, () => {
  it('changes the password: refusals on their fields, then the old one is refused and the new one signs in', async () => {
    const p = await signedIn('/account');
    await p.getByRole('link', { name: 'Change password' }).click();
    await p.waitForURL((u) => u.pathname === '/account/password');
    const current = p.getByLabel('Current password', { exact: true });
    const next = p.getByLabel('New password', { exact: true });
    const submit = p.getByRole('button', { name: 'Change password' });

    // Nothing typed: both fields say so, and nothing is sent.
    await submit.click();
    await poll(() => p.locator('#password-current_password-error').innerText()).not.toBe('');
    expect(await current.getAttribute('aria-invalid')).toBe('true');
    expect(await next.getAttribute('aria-invalid')).toBe('true');

    // A wrong current password: the API's refusal stands on that field.
    await current.fill('not my password at all');
    await next.fill(NEW_PASSWORD);
    const wrong = p.waitForResponse((r) => r.url().endsWith('/v1/auth/password/change'));
    await submit.click();
    expect((await wrong).status()).toBe(400);
    await poll(() => p.locator('#password-current_password-error').innerText()).toBe('The current password is wrong.');
    expect(await current.getAttribute('aria-invalid')).toBe('true');
    expect(await current.getAttribute('aria-describedby')).toContain('password-current_password-error');
    expect(await next.getAttribute('aria-invalid')).toBe('false');
    await poll(() => p.locator(':focus').getAttribute('id')).toBe('password-current_password');
    await screenshot(p, 'account-password-wrong', { fullPage: true });
    expect(await criticalViolations(p)).toEqual([]);

    // A new password that is too short: on the new password's field.
    await current.fill(password);
    await next.fill('short');
    await submit.click();
    await poll(() => p.locator('#password-new_password-error').innerText()).toBe(
      'The password needs at least 10 characters.',
    );
    expect(await next.getAttribute('aria-invalid')).toBe('true');
    expect(await current.getAttribute('aria-invalid')).toBe('false');

    await next.fill(NEW_PASSWORD);
    await submit.click();
    await poll(() => p.getByRole('status').first().innerText()).toMatch(/Your password is changed/);
    expect(await p.locator('.field-error').count()).toBe(0);

    expect((await login(DEMO_ACCOUNT.password)).status).not.toBe(200);
    expect((await login(NEW_PASSWORD)).status).toBe(200);
    password = NEW_PASSWORD;
    // This session stays signed in (spec 5.11).
    await p.goto(`${t.url}/account/sessions?lang=en`);
    await p.getByRole('heading', { level: 1, name: 'Devices and sessions' }).waitFor();
  });

  it('names each session by its browser and system, in the interface language', async () => {
    // One more session, from a client that says nothing of itself.
    expect((await login(password)).status).toBe(200);
    const p = await signedIn('/account/sessions');
    const devices = p.locator('.sessions .device');
    await poll(() => devices.count()).toBeGreaterThanOrEqual(2);
    const mine = p.locator('.sessions li.current .device');
    expect(await mine.innerText()).toBe('Chrome on Linux');
    expect(await mine.getAttribute('title')).toMatch(/Chrome\/.* Safari\//);
    // No row shows a raw user-agent string.
    for (const text of await devices.allInnerTexts()) expect(text).not.toMatch(/Mozilla|AppleWebKit|\//);
    await screenshot(p, 'account-sessions-named', { fullPage: true });

    for (const [lang, name] of [
      ['ru', 'Chrome на Linux'],
      ['th', 'Chrome บน Linux'],
      ['zh-Hans', 'Linux 上的 Chrome'],
    ] as const) {
      await p.goto(`${t.url}/account/sessions?lang=${lang}`);
      await poll(() => p.locator('.sessions li.current .device').innerText()).toBe(name);
    }
  });

  it('refuses a file that is not an image on the field, with no broken preview', async () => {
    const p = await signedIn('/account/profile');
    const input = p.getByLabel('Choose a photo', { exact: true });
    const error = p.locator('#avatar-file-error');
    const upload = p.getByRole('button', { name: 'Upload' });
    const notImage = 'This file is not a JPEG, PNG, HEIC or WebP image.';

    // A text file: refused at once by its type.
    await input.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await poll(() => error.innerText()).toBe(notImage);
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    expect(await input.getAttribute('aria-describedby')).toContain('avatar-file-error');
    expect(await p.locator('img.preview').count()).toBe(0);
    expect(await upload.isDisabled()).toBe(true);
    await screenshot(p, 'account-avatar-not-image', { fullPage: true });
    expect(await criticalViolations(p)).toEqual([]);

    // Named a PNG, but not a picture: the browser cannot draw it, the preview goes, the field says why.
    await input.setInputFiles({ name: 'fake.png', mimeType: 'image/png', buffer: Buffer.from('not a png at all') });
    await poll(() => error.innerText()).toBe(notImage);
    expect(await p.locator('img.preview').count()).toBe(0);

    // A picture the browser draws but the API does not take (BMP sent as a PNG): the API's
    // 400 on `file` (reason `unsupported_type`) stands on the field.
    await input.setInputFiles({ name: 'pixel.png', mimeType: 'image/png', buffer: bmp1x1() });
    await poll(() => p.locator('img.preview').count()).toBe(1);
    expect(await error.count()).toBe(0);
    const answer = p.waitForResponse((r) => r.url().endsWith('/v1/me/avatar'));
    await upload.click();
    const refused = await answer;
    expect(refused.status()).toBe(400);
    expect(((await refused.json()) as { error: { details: { reason: string } } }).error.details.reason).toBe(
      'unsupported_type',
    );
    await poll(() => error.innerText()).toBe(notImage);
    expect(await p.locator('img.preview').count()).toBe(0);
    expect(await p.locator('.avatar-editor [role="alert"]').count()).toBe(0);
  });
});

/** A 1 × 1 white BMP: an image Chromium draws, not one of the API's formats. */
function bmp1x1(): Buffer {
  const b = Buffer.alloc(58);
  b.write('BM', 0, 'ascii');
  b.writeUInt32LE(58, 2); // file size
  b.writeUInt32LE(54, 10); // pixel data offset
  b.writeUInt32LE(40, 14); // header size
  b.writeInt32LE(1, 18); // width
  b.writeInt32LE(1, 22); // height
  b.writeUInt16LE(1, 26); // planes
  b.writeUInt16LE(24, 28); // bits per pixel
  b.writeUInt32LE(4, 34); // image size (one row, padded to 4 bytes)
  b.writeUIntLE(0xffffff, 54, 3);
  return b;
}
