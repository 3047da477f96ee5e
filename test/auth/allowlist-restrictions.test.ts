import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/test-app.ts';
import { expectEnvelope, http } from '../support/http.ts';
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
});

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
