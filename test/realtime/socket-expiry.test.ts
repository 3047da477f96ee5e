import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '@guest/realtime';
import { socketAuthenticator } from '@guest/realtime/socket-auth';
import type { TestApp } from '../support/test-app.ts';
import { http } from '../support/http.ts';
import { confirmEmail, register, startAuthApp, type Registered } from '../write-api/auth/support.ts';
import { connect, tokenExpiringIn } from './support.ts';

/*
 * A socket lives as long as what opened it, unless renewed in-band (`auth.renew`). Tokens are
 * real, signed to lapse a few seconds from now, and the warning lead is one second: the rules are
 * the production ones at a shorter scale, with no fixed sleeps.
 */
let t: TestApp;
let gw: Gateway;
let guest: Registered;
let who: { accountId: string; sessionId: string };

beforeAll(async () => {
  t = await startAuthApp({ WS_EXPIRY_WARNING_S: 1 });
  gw = await startGateway({
    config: t.config,
    authenticate: socketAuthenticator(t.runtime),
    port: 0,
    host: '127.0.0.1',
  });
  guest = await register(t);
  await confirmEmail(t, guest.email);
  who = { accountId: guest.accountId, sessionId: guest.tokens.session_id };
});
afterAll(async () => {
  await gw?.close();
  await t?.close();
});

const wsUrl = (query: string) => `ws://127.0.0.1:${gw.port}/v1/ws?${query}`;
const iso = (exp: number) => new Date(exp * 1000).toISOString();

describe('socket expiry and in-band renewal (/v1/ws)', () => {
  it('warns with auth.expiring, then closes with 4401 expired when the token lapses without renewal', async () => {
    const { token, exp } = await tokenExpiringIn(t.config, who, 3);
    const s = await connect(wsUrl(`access_token=${token}`));
    expect((await s.next('hello')).data).toEqual({
      account_id: guest.accountId,
      session_id: guest.tokens.session_id,
      expires_at: iso(exp),
    });
    const warning = await s.next('auth.expiring');
    expect(warning.data.expires_at).toBe(iso(exp));
    expect(warning.data.expires_in).toBeLessThanOrEqual(1);
    const closed = await s.closed;
    expect(closed).toMatchObject({ code: 4401, reason: 'expired' });
    expect(closed.at).toBeGreaterThanOrEqual(exp * 1000);
  });

  it('stays open past the first expiry when renewed with a fresh access token, then lapses at the new one', async () => {
    const first = await tokenExpiringIn(t.config, who, 2);
    const s = await connect(wsUrl(`access_token=${first.token}`));
    await s.next('hello');
    const second = await tokenExpiringIn(t.config, who, 4);
    s.send({ type: 'auth.renew', data: { access_token: second.token } });
    expect((await s.next('auth.renewed')).data).toEqual({ expires_at: iso(second.exp) });
    // The warning for the new expiry comes after the first one has passed.
    await s.next('auth.expiring', (m) => m.data.expires_at === iso(second.exp));
    expect(Date.now()).toBeGreaterThan(first.exp * 1000);
    s.send({ type: 'ping' });
    await s.next('pong');
    const closed = await s.closed;
    expect(closed).toMatchObject({ code: 4401, reason: 'expired' });
    expect(closed.at).toBeGreaterThanOrEqual(second.exp * 1000);
  });

  it('renews a ticket-opened socket (web) with an access token, and an app socket with a ticket', async () => {
    const { ticket } = (await http(t.url, 'POST', '/v1/auth/ws-ticket', { token: guest.tokens.access_token })).body;
    const web = await connect(wsUrl(`ticket=${ticket}`));
    const hello = await web.next('hello');
    // A ticket carries no expiry: the socket gets an access token's lifetime.
    const lifetime = Date.parse(hello.data.expires_at) - Date.now();
    expect(lifetime).toBeGreaterThan((t.config.ACCESS_TOKEN_TTL_S - 5) * 1000);
    expect(lifetime).toBeLessThanOrEqual(t.config.ACCESS_TOKEN_TTL_S * 1000);
    const short = await tokenExpiringIn(t.config, who, 2);
    web.send({ type: 'auth.renew', data: { access_token: short.token } });
    expect((await web.next('auth.renewed')).data.expires_at).toBe(iso(short.exp));
    expect(await web.closed).toMatchObject({ code: 4401, reason: 'expired' });

    const app = await connect(wsUrl(`access_token=${(await tokenExpiringIn(t.config, who, 30)).token}`));
    await app.next('hello');
    const fresh = (await http(t.url, 'POST', '/v1/auth/ws-ticket', { token: guest.tokens.access_token })).body.ticket;
    app.send({ type: 'auth.renew', data: { ticket: fresh } });
    const renewed = await app.next('auth.renewed');
    expect(Date.parse(renewed.data.expires_at) - Date.now()).toBeGreaterThan((t.config.ACCESS_TOKEN_TTL_S - 5) * 1000);
    app.ws.close();
  });

  it('refuses a renewal with an expired token or another account’s token, and keeps the current expiry', async () => {
    const current = await tokenExpiringIn(t.config, who, 30);
    const s = await connect(wsUrl(`access_token=${current.token}`));
    await s.next('hello');
    const stale = await tokenExpiringIn(t.config, who, -5);
    s.send({ type: 'auth.renew', data: { access_token: stale.token } });
    expect((await s.next('error')).data).toMatchObject({
      code: 'unauthorized',
      details: { reason: 'expired', in_reply_to: 'auth.renew' },
    });
    const other = await register(t);
    await confirmEmail(t, other.email);
    s.send({ type: 'auth.renew', data: { access_token: other.tokens.access_token } });
    expect((await s.next('error', (m) => m.data.code === 'forbidden')).data.details).toEqual({
      reason: 'other_account',
      in_reply_to: 'auth.renew',
    });
    // Still open, still bound to its account, with the expiry it had.
    s.send({ type: 'ping' });
    await s.next('pong');
    expect(s.messages.some((m) => m.type === 'auth.renewed')).toBe(false);
    s.ws.close();
  });
});
