import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redeemWsTicket } from '@guest/auth';
import type { TestApp } from '../../support/test-app.ts';
import { expectEnvelope, http } from '../../support/http.ts';
import { confirmEmail, register, startAuthApp } from './support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startAuthApp();
});
afterAll(async () => t?.close());

async function confirmedUser() {
  const u = await register(t);
  await confirmEmail(t, u.email);
  return u;
}
const issue = (token: string) => http(t.url, 'POST', '/v1/auth/ws-ticket', { token });

describe('POST /v1/auth/ws-ticket', () => {
  it('issues a ticket valid one minute that redeemWsTicket turns into the account and session once', async () => {
    const u = await confirmedUser();
    const res = await issue(u.tokens.access_token);
    expect(res.status).toBe(200);
    expect(res.body.expires_in).toBe(60);
    const ttl = await t.runtime.redis.ttl(`ws-ticket:${res.body.ticket}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60);
    expect(await redeemWsTicket(t.runtime.redis, res.body.ticket)).toEqual({
      accountId: u.accountId,
      sessionId: u.tokens.session_id,
    });
    expect(await redeemWsTicket(t.runtime.redis, res.body.ticket)).toBeNull();
  });

  it('is single use even under 25 concurrent redemptions', async () => {
    const u = await confirmedUser();
    const { ticket } = (await issue(u.tokens.access_token)).body;
    const results = await Promise.all(Array.from({ length: 25 }, () => redeemWsTicket(t.runtime.redis, ticket)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('unknown or malformed tickets redeem to nothing', async () => {
    expect(await redeemWsTicket(t.runtime.redis, 'A'.repeat(43))).toBeNull();
    expect(await redeemWsTicket(t.runtime.redis, 'bad ticket!')).toBeNull();
  });

  it('needs sign-in and a confirmed email', async () => {
    expectEnvelope(await http(t.url, 'POST', '/v1/auth/ws-ticket'), 401, 'unauthorized');
    const u = await register(t);
    expectEnvelope(await issue(u.tokens.access_token), 403, 'email_not_confirmed');
  });

  it('is refused with 403 account_restricted while a login restriction is active', async () => {
    const u = await confirmedUser();
    await t.sql.query(`insert into account_restrictions (account_id, kind) values ($1, 'login')`, [u.accountId]);
    expect(expectEnvelope(await issue(u.tokens.access_token), 403, 'account_restricted').details.restrictions).toEqual([
      'login',
    ]);
  });
});
