import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startGateway, type Gateway } from '@guest/realtime';
import { socketAuthenticator } from '@guest/realtime/socket-auth';
import type { TestApp } from '../support/test-app.ts';
import { http } from '../support/http.ts';
import { eventually } from '../support/eventually.ts';
import { confirmEmail, register, startAuthApp, type Registered } from '../write-api/auth/support.ts';

// Issue 10 point 11: the gateway deployed alone answers the operator endpoints on its own port,
// and counts its open sockets.

let t: TestApp;
let gw: Gateway;
let guest: Registered;
let base: string;

beforeAll(async () => {
  t = await startAuthApp();
  gw = await startGateway({
    config: t.config,
    authenticate: socketAuthenticator(t.runtime),
    port: 0,
    host: '127.0.0.1',
  });
  base = `http://127.0.0.1:${gw.port}`;
  guest = await register(t);
  await confirmEmail(t, guest.email);
});
afterAll(async () => {
  await gw?.close();
  await t?.close();
});

const openSockets = async () => {
  const res = await http(base, 'GET', '/metrics');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  const m = /^realtime_open_sockets ([0-9]+)$/m.exec(res.text);
  return m ? Number(m[1]) : undefined;
};

async function open(): Promise<WebSocket> {
  const res = await http(t.url, 'POST', '/v1/auth/ws-ticket', { token: guest.tokens.access_token });
  expect(res.status).toBe(200);
  const ws = new WebSocket(`ws://127.0.0.1:${gw.port}/v1/ws?ticket=${res.body.ticket}`);
  await new Promise<void>((resolve, reject) => {
    ws.on('message', () => resolve());
    ws.on('error', reject);
  });
  return ws;
}

describe('gateway operator endpoints', () => {
  it('answers /livez and /readyz (its Redis subscription is up)', async () => {
    const live = await http(base, 'GET', '/livez');
    expect(live.status).toBe(200);
    expect(live.body).toEqual({ status: 'ok' });
    const ready = await eventually('the gateway to be ready', async () => (await http(base, 'GET', '/readyz')).status, {
      until: (s) => s === 200,
    });
    expect(ready).toBe(200);
  });

  it('counts open sockets in /metrics as they open and close', async () => {
    expect(await openSockets()).toBe(0);
    const a = await open();
    const b = await open();
    expect(await openSockets()).toBe(2);
    expect(gw.openSockets()).toBe(2);
    a.close();
    await eventually('one socket to remain', openSockets, { until: (n) => n === 1 });
    b.close();
    await eventually('no socket to remain', openSockets, { until: (n) => n === 0 });
  });
});

describe('gateway answers like the API (issue 32 point 8)', () => {
  it('says nosniff on every answer, HSTS when served over https, and keeps /metrics behind METRICS_TOKEN', async () => {
    for (const path of ['/livez', '/readyz', '/metrics', '/health', '/nope', '/v1/ws']) {
      const res = await http(base, 'GET', path);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('strict-transport-security'), path).toBeNull();
    }
    const token = 'a-metrics-token-of-at-least-32-bytes-long';
    const guarded = await startGateway({
      config: { ...t.config, PUBLIC_BASE_URL: 'https://api.example.test', METRICS_TOKEN: token },
      authenticate: socketAuthenticator(t.runtime),
      port: 0,
      host: '127.0.0.1',
    });
    try {
      const at = `http://127.0.0.1:${guarded.port}`;
      const refused = await http(at, 'GET', '/metrics');
      expect(refused.status).toBe(401);
      expect(refused.body.error.details.reason).toBe('metrics_token');
      expect(refused.headers.get('strict-transport-security')).toBe('max-age=31536000');
      expect(refused.headers.get('x-content-type-options')).toBe('nosniff');
      const scraped = await http(at, 'GET', '/metrics', { token });
      expect(scraped.status).toBe(200);
      expect(scraped.text).toMatch(/^realtime_open_sockets 0$/m);
    } finally {
      await guarded.close();
    }
  });
});
