import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeApi } from '@guest/write-api';
import { startGateway, type Gateway } from '@guest/realtime';
import { socketAuthenticator } from '@guest/realtime/socket-auth';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { expectEnvelope, http } from '../../support/http.ts';
import { restrictAccount } from '@guest/write-api/restrictions';
import { confirmEmail, login, register, relaxedLimits, type Registered } from './support.ts';
import { guardProbeApp } from './guard-probe.ts';
import { connect as open, type Opened } from '../../realtime/support.ts';

// Issue 14 point 6, DESIGN G5b: a new restriction acts on open sessions at once, not when their
// 15-minute access tokens run out.

let t: TestApp;
let gw: Gateway;
beforeAll(async () => {
  t = await startTestApp({ apps: [writeApi, guardProbeApp], config: relaxedLimits });
  gw = await startGateway({
    config: t.config,
    authenticate: socketAuthenticator(t.runtime),
    port: 0,
    host: '127.0.0.1',
  });
});
afterAll(async () => {
  await gw?.close();
  await t?.close();
});

const deps = () => ({
  clock: t.runtime.clock,
  database: t.runtime.database,
  redis: t.runtime.redis,
  config: t.config,
  log: { warn: () => {} },
});
/** What a moderation tool outside this API does: a row written straight into the table. */
const insertRestriction = (accountId: string, kind: string) =>
  t.sql.query(`insert into account_restrictions (account_id, kind) values ($1, $2)`, [accountId, kind]);

async function confirmed(): Promise<Registered> {
  const u = await register(t);
  await confirmEmail(t, u.email);
  return u;
}

/** Opens a socket on the gateway; rejects with the HTTP answer (`status`) of a refused upgrade. */
const connect = (query: string): Promise<Opened> => open(`ws://127.0.0.1:${gw.port}/v1/ws?${query}`);

describe('a login restriction written by any means bites from the next request', () => {
  it('an unexpired token of the account gets 403 account_restricted at once, on every signed-in route', async () => {
    const u = await confirmed();
    const token = u.tokens.access_token;
    expect((await http(t.url, 'GET', '/v1/me', { token })).status).toBe(200);
    await insertRestriction(u.accountId, 'login');

    const me = expectEnvelope(await http(t.url, 'GET', '/v1/me', { token }), 403, 'account_restricted');
    expect(me.details.restrictions).toEqual(['login']);
    expectEnvelope(await http(t.url, 'GET', '/v1/me/badges', { token }), 403, 'account_restricted');
    expectEnvelope(
      await http(t.url, 'PATCH', '/v1/me', { token, body: { first_name: 'Still here' } }),
      403,
      'account_restricted',
    );
    // Optional sign-in (the read API's feed) does not pass the account off as anonymous either.
    expectEnvelope(await http(t.url, 'GET', '/v1/_probe/auth/optional', { token }), 403, 'account_restricted');
    expectEnvelope(
      await http(t.url, 'POST', '/v1/auth/refresh', { body: { refresh_token: u.tokens.refresh_token } }),
      403,
      'account_restricted',
    );
    // What stays open: seeing and ending the sessions.
    expect((await http(t.url, 'GET', '/v1/auth/sessions', { token })).status).toBe(200);
    expect((await http(t.url, 'POST', '/v1/auth/logout', { token })).status).toBe(200);
    expectEnvelope(await http(t.url, 'GET', '/v1/auth/sessions', { token }), 401, 'unauthorized');
  });

  it('a socket ticket issued before the restriction no longer opens the socket; nor does the access token', async () => {
    const u = await confirmed();
    const ticket = await http(t.url, 'POST', '/v1/auth/ws-ticket', { token: u.tokens.access_token });
    expect(ticket.status).toBe(200);
    await insertRestriction(u.accountId, 'login');
    // Refused as the HTTP guards refuse it (403 account_restricted), so the client knows why.
    await expect(connect(`ticket=${ticket.body.ticket}`)).rejects.toMatchObject({ status: 403 });
    await expect(connect(`access_token=${u.tokens.access_token}`)).rejects.toMatchObject({ status: 403 });
  });

  it('other kinds limit only the routes they concern', async () => {
    const u = await confirmed();
    await insertRestriction(u.accountId, 'booking');
    const token = u.tokens.access_token;
    expect((await http(t.url, 'GET', '/v1/me', { token })).body.restrictions).toMatchObject([{ kind: 'booking' }]);
    expectEnvelope(await http(t.url, 'GET', '/v1/_probe/auth/booking', { token }), 403, 'account_restricted');
  });
});

describe('restrictAccount (moderation tooling) reaches the open sockets too', () => {
  it('login: every session closes, its sockets hear account.restricted and session.closed and are dropped', async () => {
    const u = await confirmed();
    const other = await login(t, u.email);
    expect(other.status).toBe(200);
    const a = await connect(`access_token=${u.tokens.access_token}`);
    const b = await connect(`access_token=${other.body.access_token}`);
    await Promise.all([a.next('hello'), b.next('hello')]);

    const until = new Date(Date.now() + 7 * 86_400_000);
    const done = await restrictAccount(deps(), { accountId: u.accountId, kind: 'login', reason: 'spam', until });
    expect(done.closedSessions.sort()).toEqual([u.tokens.session_id, other.body.session_id].sort());

    for (const s of [a, b]) {
      expect((await s.next('account.restricted')).data).toEqual({
        kind: 'login',
        reason: 'spam',
        until: until.toISOString(),
      });
      await s.next('session.closed');
      expect((await s.closed).code).toBe(4001);
    }
    expect(
      expectEnvelope(await http(t.url, 'GET', '/v1/me', { token: u.tokens.access_token }), 401, 'unauthorized').details
        .reason,
    ).toBe('session_closed');
    expectEnvelope(
      await http(t.url, 'POST', '/v1/auth/refresh', { body: { refresh_token: other.body.refresh_token } }),
      401,
      'unauthorized',
    );
  });

  it('messaging: the socket is told and stays open; the sessions stay open', async () => {
    const u = await confirmed();
    const s = await connect(`access_token=${u.tokens.access_token}`);
    await s.next('hello');
    const done = await restrictAccount(deps(), { accountId: u.accountId, kind: 'messaging' });
    expect(done.closedSessions).toEqual([]);
    expect((await s.next('account.restricted')).data).toEqual({ kind: 'messaging', reason: null, until: null });
    s.ws.send(JSON.stringify({ type: 'ping' }));
    await s.next('pong');
    expect((await http(t.url, 'GET', '/v1/me', { token: u.tokens.access_token })).body.restrictions).toMatchObject([
      { kind: 'messaging' },
    ]);
    s.ws.close();
  });
});
