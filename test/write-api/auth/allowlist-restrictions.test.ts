import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/test-app.ts';
import { expectEnvelope, http } from '../../support/http.ts';
import { login, PASSWORD, register, startAuthApp, uniqueEmail } from './support.ts';

describe('test stand allow-list (spec 5.9)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startAuthApp({ SIGNIN_ALLOWLIST: 'tester@outside.org, @team.example, partner.example' });
  });
  afterAll(async () => t?.close());

  const body = (email: string) => ({ first_name: 'A', last_name: 'B', email, password: PASSWORD, accept_terms: true });

  it('only listed emails and domains register and sign in', async () => {
    for (const email of ['tester@outside.org', 'anna@team.example', 'Bob@Partner.example']) {
      const res = await http(t.url, 'POST', '/v1/auth/register', { body: body(email) });
      expect([email, res.status]).toEqual([email, 201]);
      expect((await login(t, email)).status).toBe(200);
    }
    for (const email of ['other@outside.org', 'anna@sub.team.example', 'x@example.com']) {
      const res = await http(t.url, 'POST', '/v1/auth/register', { body: body(email) });
      expect(expectEnvelope(res, 403, 'forbidden').details.reason).toBe('not_on_allowlist');
      expect(expectEnvelope(await login(t, email), 403, 'forbidden').details.reason).toBe('not_on_allowlist');
    }
  });

  it('a session of an email taken off the list cannot be refreshed', async () => {
    const u = await register(t, { email: `gone-${Date.now()}@team.example` });
    await t.sql.query(`update accounts set email = 'moved@elsewhere.example' where id = $1`, [u.accountId]);
    expectEnvelope(
      await http(t.url, 'POST', '/v1/auth/refresh', { body: { refresh_token: u.tokens.refresh_token } }),
      403,
      'forbidden',
    );
  });

  it('a refresh refused for the allow-list leaves the session as it was (expiry, last use, address)', async () => {
    const u = await register(t, { email: `stale-${Date.now()}@team.example` });
    await ageSession(t, u.tokens.session_id);
    const before = await sessionRow(t, u.tokens.session_id);
    await t.sql.query(`update accounts set email = 'moved2@elsewhere.example' where id = $1`, [u.accountId]);
    expectEnvelope(
      await http(t.url, 'POST', '/v1/auth/refresh', {
        body: { refresh_token: u.tokens.refresh_token },
        headers: { 'user-agent': 'refused-client/1' },
      }),
      403,
      'forbidden',
    );
    expect(await sessionRow(t, u.tokens.session_id)).toEqual(before);
  });
});

/** Puts the session's expiry one day ahead and its last use 29 days back, so a slide would show. */
async function ageSession(t: TestApp, sessionId: string) {
  await t.sql.query(
    `update sessions set expires_at = now() + interval '1 day', last_used_at = now() - interval '29 days' where id = $1`,
    [sessionId],
  );
}
async function sessionRow(t: TestApp, sessionId: string) {
  const { rows } = await t.sql.query('select expires_at, last_used_at, ip, user_agent from sessions where id = $1', [
    sessionId,
  ]);
  return rows[0];
}

describe('restricted accounts (spec 5.7)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startAuthApp();
  });
  afterAll(async () => t?.close());

  const restrict = (accountId: string, kind: string, until = 'null') =>
    t.sql.query(`insert into account_restrictions (account_id, kind, until) values ($1, $2, ${until})`, [
      accountId,
      kind,
    ]);

  it('a login restriction answers 403 account_restricted at login and refresh, after the password check', async () => {
    const u = await register(t);
    await restrict(u.accountId, 'login');
    expect(expectEnvelope(await login(t, u.email), 403, 'account_restricted').details.restrictions).toEqual(['login']);
    // A wrong password still gets the answer that tells nothing.
    expectEnvelope(await login(t, u.email, 'wrong password here'), 401, 'unauthorized');
    expectEnvelope(
      await http(t.url, 'POST', '/v1/auth/refresh', { body: { refresh_token: u.tokens.refresh_token } }),
      403,
      'account_restricted',
    );
  });

  it('a refresh refused for a login restriction does not extend the session; after the lift it does', async () => {
    const u = await register(t);
    await ageSession(t, u.tokens.session_id);
    const before = await sessionRow(t, u.tokens.session_id);
    await restrict(u.accountId, 'login');
    const refresh = () =>
      http(t.url, 'POST', '/v1/auth/refresh', {
        body: { refresh_token: u.tokens.refresh_token },
        headers: { 'user-agent': 'refused-client/1' },
      });
    expectEnvelope(await refresh(), 403, 'account_restricted');
    expect(await sessionRow(t, u.tokens.session_id)).toEqual(before);
    // What a client sees: the sessions list shows the same expiry as before the refusal.
    const listed = await http(t.url, 'GET', '/v1/auth/sessions', { token: u.tokens.access_token });
    expect(Date.parse(listed.body[0].expires_at)).toBe(before.expires_at.getTime());

    await t.sql.query(`update account_restrictions set lifted_at = now() where account_id = $1`, [u.accountId]);
    expect((await refresh()).status).toBe(200);
    const after = await sessionRow(t, u.tokens.session_id);
    expect(after.expires_at.getTime()).toBeGreaterThan(before.expires_at.getTime() + 28 * 86_400_000);
    expect(after.user_agent).toBe('refused-client/1');
  });

  it('other restrictions, expired or lifted ones do not stop sign-in', async () => {
    const u = await register(t);
    await restrict(u.accountId, 'booking');
    await restrict(u.accountId, 'login', `now() - interval '1 minute'`);
    expect((await login(t, u.email)).status).toBe(200);
    await restrict(u.accountId, 'login');
    expectEnvelope(await login(t, u.email), 403, 'account_restricted');
    await t.sql.query(`update account_restrictions set lifted_at = now() where account_id = $1 and kind = 'login'`, [
      u.accountId,
    ]);
    expect((await login(t, u.email)).status).toBe(200);
  });

  it('sign-out and the sessions list keep working for a restricted account', async () => {
    const u = await register(t);
    await restrict(u.accountId, 'login');
    expect((await http(t.url, 'GET', '/v1/auth/sessions', { token: u.tokens.access_token })).status).toBe(200);
    expect((await http(t.url, 'POST', '/v1/auth/logout', { token: u.tokens.access_token })).status).toBe(200);
  });

  it('an unknown email is never reported as restricted', async () => {
    expectEnvelope(await login(t, uniqueEmail()), 401, 'unauthorized');
  });
});
