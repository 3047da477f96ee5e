import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type Gateway } from '@guest/realtime';
import { socketAuthenticator } from '@guest/realtime/socket-auth';
import { fixedClock } from '@guest/runtime';
import type { TestApp } from '../support/test-app.ts';
import { http } from '../support/http.ts';
import { confirmEmail, register, startAuthApp, type Registered } from '../write-api/auth/support.ts';
import { connect, tokenExpiringIn, type Opened } from './support.ts';

/*
 * A socket lives as long as what opened it, unless renewed in-band (`auth.renew`). Tokens are
 * real and the rules the production ones (the warning lead is one second here); time is the
 * server's clock, which the test moves past each instant instead of waiting for it.
 */
const clock = fixedClock(new Date());
let t: TestApp;
let gw: Gateway;
let guest: Registered;
let who: { accountId: string; sessionId: string };

beforeAll(async () => {
  t = await startAuthApp({ WS_EXPIRY_WARNING_S: 1 }, clock);
  gw = await startGateway({
    config: t.config,
    authenticate: socketAuthenticator(t.runtime),
    port: 0,
    host: '127.0.0.1',
    clock,
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
const expiringIn = (inS: number) => tokenExpiringIn(t.config, who, inS, clock.now());
/** Moves the server's clock to `ms` before the instant `exp` (seconds), running what is due by then. */
const moveTo = (exp: number, msBefore = 0) => clock.set(new Date(exp * 1000 - msBefore));

/** The socket still answers: it was not closed by what the clock ran so far. */
async function stillOpen(s: Opened) {
  s.send({ type: 'ping' });
  const pongs = s.messages.filter((m) => m.type === 'pong').length;
  await s.next('pong', () => s.messages.filter((m) => m.type === 'pong').length > pongs);
}

describe('socket expiry and in-band renewal (/v1/ws)', () => {
  it('warns with auth.expiring, then closes with 4401 expired when the token lapses without renewal', async () => {
    const { token, exp } = await expiringIn(3);
    const s = await connect(wsUrl(`access_token=${token}`));
    expect((await s.next('hello')).data).toEqual({
      account_id: guest.accountId,
      session_id: guest.tokens.session_id,
      expires_at: iso(exp),
    });
    moveTo(exp, 1001);
    await stillOpen(s);
    expect(s.messages.some((m) => m.type === 'auth.expiring')).toBe(false);
    moveTo(exp, 1000);
    const warning = await s.next('auth.expiring');
    expect(warning.data).toEqual({ expires_at: iso(exp), expires_in: 1 });
    moveTo(exp, 1);
    await stillOpen(s);
    moveTo(exp);
    expect(await s.closed).toMatchObject({ code: 4401, reason: 'expired' });
  });

  it('stays open past the first expiry when renewed with a fresh access token, then lapses at the new one', async () => {
    const first = await expiringIn(2);
    const s = await connect(wsUrl(`access_token=${first.token}`));
    await s.next('hello');
    const second = await expiringIn(4);
    s.send({ type: 'auth.renew', data: { access_token: second.token } });
    expect((await s.next('auth.renewed')).data).toEqual({ expires_at: iso(second.exp) });
    // Past the first expiry: still open, and nothing warned of yet.
    moveTo(first.exp, -500);
    await stillOpen(s);
    expect(s.messages.some((m) => m.type === 'auth.expiring')).toBe(false);
    moveTo(second.exp, 1000);
    expect((await s.next('auth.expiring')).data.expires_at).toBe(iso(second.exp));
    await stillOpen(s);
    moveTo(second.exp);
    expect(await s.closed).toMatchObject({ code: 4401, reason: 'expired' });
  });

  it('renews a ticket-opened socket (web) with an access token, and an app socket with a ticket', async () => {
    const { ticket } = (await http(t.url, 'POST', '/v1/auth/ws-ticket', { token: guest.tokens.access_token })).body;
    const web = await connect(wsUrl(`ticket=${ticket}`));
    const hello = await web.next('hello');
    // A ticket carries no expiry: the socket gets an access token's lifetime from the moment it opens.
    expect(Date.parse(hello.data.expires_at) - clock.now().getTime()).toBe(t.config.ACCESS_TOKEN_TTL_S * 1000);
    const short = await expiringIn(2);
    web.send({ type: 'auth.renew', data: { access_token: short.token } });
    expect((await web.next('auth.renewed')).data.expires_at).toBe(iso(short.exp));
    moveTo(short.exp);
    expect(await web.closed).toMatchObject({ code: 4401, reason: 'expired' });

    const app = await connect(wsUrl(`access_token=${(await expiringIn(30)).token}`));
    await app.next('hello');
    const fresh = (await http(t.url, 'POST', '/v1/auth/ws-ticket', { token: guest.tokens.access_token })).body.ticket;
    app.send({ type: 'auth.renew', data: { ticket: fresh } });
    const renewed = await app.next('auth.renewed');
    expect(Date.parse(renewed.data.expires_at) - clock.now().getTime()).toBe(t.config.ACCESS_TOKEN_TTL_S * 1000);
    app.ws.close();
  });

  it('refuses a renewal with an expired token or another account’s token, and keeps the current expiry', async () => {
    const current = await expiringIn(30);
    const s = await connect(wsUrl(`access_token=${current.token}`));
    await s.next('hello');
    const stale = await expiringIn(-5);
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
