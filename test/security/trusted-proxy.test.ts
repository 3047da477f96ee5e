import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '@guest/config';
import { writeApi } from '@guest/write-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { expectEnvelope, http } from '../support/http.ts';
import { probeApp } from '../foundation/probe-app.ts';
import { relaxedLimits, signUp } from './support.ts';

// Issue 14 point 1, DESIGN.md section 6: TRUST_PROXY is a hop count or the proxies' addresses;
// the client address is the first untrusted hop from the right of X-Forwarded-For. Every test
// server here is reached over loopback, so the socket's peer (the "nearest proxy") is 127.0.0.1.
// Addresses in headers are documentation ranges (RFC 5737); no traffic goes to them.

const apps: TestApp[] = [];
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
});

async function start(config: Record<string, string | number | boolean>, withWriteApi = false) {
  const t = await startTestApp({
    apps: withWriteApi ? [probeApp, writeApi] : [probeApp],
    config: { ...relaxedLimits, ...config },
  });
  apps.push(t);
  return t;
}

let spoofs = 0;
/** A fresh, never-seen left-most address: what a script rotates to escape per-address limits. */
function spoofed(): string {
  spoofs++;
  return `192.0.2.${spoofs % 250}, 100.${(spoofs >> 8) % 250}.${spoofs % 250}.7`;
}

async function statuses(t: TestApp, n: number, xff: () => string): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    out.push((await http(t.url, 'GET', '/v1/_probe/lang', { headers: { 'x-forwarded-for': xff() } })).status);
  }
  return out;
}

describe('TRUST_PROXY configuration', () => {
  it('refuses "trust everything" with a message that says what to give instead', () => {
    for (const value of ['true', 'TRUE', 'yes', '*']) {
      let err: unknown;
      try {
        loadConfig({ APP_ENV: 'test', TRUST_PROXY: value });
      } catch (e) {
        err = e;
      }
      expect(err, value).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toMatch(/TRUST_PROXY: trusting every proxy hop is refused/);
      expect((err as Error).message).toMatch(/number of proxies/);
    }
  });

  it('takes a hop count, or addresses and CIDRs, and names a bad entry', () => {
    expect(loadConfig({ APP_ENV: 'test', TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadConfig({ APP_ENV: 'test', TRUST_PROXY: 'false' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ APP_ENV: 'test', TRUST_PROXY: '0' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ APP_ENV: 'test' }).TRUST_PROXY).toBe(false);
    expect(loadConfig({ APP_ENV: 'test', TRUST_PROXY: '10.0.0.0/8, 192.0.2.7,2001:db8::/32' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '192.0.2.7',
      '2001:db8::/32',
    ]);
    expect(() => loadConfig({ APP_ENV: 'test', TRUST_PROXY: '10.0.0.0/8,lb.internal' })).toThrow(
      /TRUST_PROXY: .*"lb.internal" is not an IP address or CIDR/,
    );
    expect(() => loadConfig({ APP_ENV: 'test', TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY: .*prefix length/);
  });
});

describe('behind one proxy (TRUST_PROXY=1)', () => {
  it('counts the per-address limit on the address the proxy saw, whatever the client wrote to the left', async () => {
    const t = await start({ TRUST_PROXY: 1, RATE_LIMIT_ADDRESS_PER_MIN: 5 });
    // The proxy appends the address it saw (203.0.113.7) to what the client sent.
    const client = await statuses(t, 7, () => `${spoofed()}, 203.0.113.7`);
    expect(client).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const last = await http(t.url, 'GET', '/v1/_probe/lang', {
      headers: { 'x-forwarded-for': `${spoofed()}, 203.0.113.7` },
    });
    expectEnvelope(last, 429, 'rate_limited');
    // Another real client behind the same proxy has its own budget.
    expect(await statuses(t, 2, () => `${spoofed()}, 203.0.113.8`)).toEqual([200, 200]);
  });
});

describe('behind two proxies', () => {
  for (const setting of ['2', '127.0.0.1, 10.0.0.0/8']) {
    it(`TRUST_PROXY=${setting}: the client is the first hop from the right that is not a proxy`, async () => {
      const t = await start({ TRUST_PROXY: setting, RATE_LIMIT_ADDRESS_PER_MIN: 5 });
      // client → edge proxy 10.0.0.5 (appends the client 198.51.100.23) → 127.0.0.1 (appends 10.0.0.5) → app
      const xff = () => `${spoofed()}, 198.51.100.23, 10.0.0.5`;
      expect(await statuses(t, 7, xff)).toEqual([200, 200, 200, 200, 200, 429, 429]);
      expect(await statuses(t, 2, () => `${spoofed()}, 198.51.100.24, 10.0.0.5`)).toEqual([200, 200]);
    });
  }

  it('the session list records the real client address, not the spoofed left-most one', async () => {
    const t = await start({ TRUST_PROXY: 2 }, true);
    const headers = { 'x-forwarded-for': '6.6.6.6, 198.51.100.23, 10.0.0.5', 'user-agent': 'proxy-test' };
    const me = await signUp(t, headers);
    const res = await http(t.url, 'GET', '/v1/me/sessions', { token: me.token, headers });
    expect(res.status).toBe(200);
    const items = (res.body.items ?? res.body) as Array<{ ip: string }>;
    expect(items.map((s) => s.ip)).toEqual(['198.51.100.23']);
  });
});

describe('a connection that does not come from a listed proxy', () => {
  it('has its X-Forwarded-For ignored: the socket address is the client', async () => {
    const t = await start({ TRUST_PROXY: '10.0.0.0/8', RATE_LIMIT_ADDRESS_PER_MIN: 5 }, true);
    expect(await statuses(t, 6, () => `${spoofed()}, 198.51.100.${spoofs % 250}`)).toEqual([
      200, 200, 200, 200, 200, 429,
    ]);
  });

  it('without TRUST_PROXY, a spoofed header changes nothing either', async () => {
    const t = await start({ RATE_LIMIT_ADDRESS_PER_MIN: 1000 }, true);
    const me = await signUp(t, { 'x-forwarded-for': '198.51.100.77' });
    const res = await http(t.url, 'GET', '/v1/me/sessions', {
      token: me.token,
      headers: { 'x-forwarded-for': '198.51.100.78' },
    });
    const items = (res.body.items ?? res.body) as Array<{ ip: string }>;
    expect(items.map((s) => s.ip)).toEqual(['127.0.0.1']);
  });
});
