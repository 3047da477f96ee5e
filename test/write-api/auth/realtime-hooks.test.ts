import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { socketAuthenticator } from '@guest/realtime/socket-auth';
import type { TestApp } from '../../support/test-app.ts';
import { http } from '../../support/http.ts';
import { eventually } from '../../support/eventually.ts';
import { confirmEmail, login, register, startAuthApp } from './support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startAuthApp();
});
afterAll(async () => t?.close());

const q = (params: Record<string, string>) => new URLSearchParams(params);

describe('socket sign-in for the realtime gateway (G5c)', () => {
  it('accepts the access token or a ticket once, for an open session with a confirmed email', async () => {
    const socketAuth = socketAuthenticator(t.runtime);
    // Who the socket would be opened for; null when it is refused.
    const authenticate = async (query: URLSearchParams) => {
      const r = await socketAuth(query);
      return 'code' in r ? null : { accountId: r.accountId, sessionId: r.sessionId };
    };
    const u = await register(t);
    const identity = { accountId: u.accountId, sessionId: u.tokens.session_id };
    // Unconfirmed email: refused (the socket rechecks confirmation).
    expect(await authenticate(q({ access_token: u.tokens.access_token }))).toBeNull();
    await confirmEmail(t, u.email);
    expect(await authenticate(q({ access_token: u.tokens.access_token }))).toEqual(identity);
    // A token of another API (its own audience and key) opens nothing.
    expect(await authenticate(q({ access_token: `${u.tokens.access_token}x` }))).toBeNull();

    const { ticket } = (await http(t.url, 'POST', '/v1/auth/ws-ticket', { token: u.tokens.access_token })).body;
    expect(await authenticate(q({ ticket }))).toEqual(identity);
    expect(await authenticate(q({ ticket }))).toBeNull();

    // A ticket whose session was closed before it was used opens nothing.
    const { ticket: late } = (await http(t.url, 'POST', '/v1/auth/ws-ticket', { token: u.tokens.access_token })).body;
    await http(t.url, 'POST', '/v1/auth/logout', { token: u.tokens.access_token });
    expect(await authenticate(q({ ticket: late }))).toBeNull();
    expect(await authenticate(q({ access_token: u.tokens.access_token }))).toBeNull();
    expect(await authenticate(q({}))).toBeNull();
  });
});

describe('session.closed reaches the account channel', () => {
  it('logout-all publishes one session.closed per ended session on the realtime bus', async () => {
    const u = await register(t);
    const a = await login(t, u.email);
    const b = await login(t, u.email);
    const sub = new Redis(t.config.REDIS_URL);
    try {
      const got: any[] = [];
      sub.on('message', (_c, raw) => got.push(JSON.parse(raw)));
      await sub.subscribe(`${t.config.REDIS_KEY_PREFIX}ws:account:${u.accountId}`);
      expect((await http(t.url, 'POST', '/v1/auth/logout-all', { token: u.tokens.access_token })).status).toBe(200);
      await eventually('two messages on the account channel', () => [...got], {
        timeoutMs: 5000,
        intervalMs: 50,
        until: (messages) => messages.length >= 2,
      });
      expect(got.map((m) => m.type)).toEqual(['session.closed', 'session.closed']);
      expect(got.map((m) => m.data.session_id).sort()).toEqual([a.body.session_id, b.body.session_id].sort());
    } finally {
      sub.disconnect();
    }
  });
});
