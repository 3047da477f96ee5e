import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/test-app.ts';
import { expectEnvelope, http } from '../../support/http.ts';
import { login, waitForMail } from '../auth/support.ts';
import { signedIn, startProfileApp } from './support.ts';

/** Issue 10 point 3: PATCH /v1/me refuses what it cannot set; the profile's status tells the truth. */
let t: TestApp;
beforeAll(async () => {
  t = await startProfileApp();
});
afterAll(async () => t?.close());

const me = (token: string) => http(t.url, 'GET', '/v1/me', { token });
const patch = (token: string, body: unknown) => http(t.url, 'PATCH', '/v1/me', { token, body });

describe('PATCH /v1/me refuses unknown and read-only fields', () => {
  it('email, status and a misspelt field are 422 schema_invalid naming each, and nothing changes', async () => {
    const g = await signedIn(t);
    const e = expectEnvelope(
      await patch(g.token, { email: 'new@example.com', status: 'active', frist_name: 'Ann', first_name: 'Ann' }),
      422,
      'schema_invalid',
    );
    expect([...e.details.fields].sort()).toEqual(['email', 'frist_name', 'status']);
    const after = (await me(g.token)).body;
    expect(after.email).toBe(g.email.toLowerCase());
    expect(after.first_name).toBe('Anna');
  });

  it('reports every field of the wrong type at once', async () => {
    const g = await signedIn(t);
    const e = expectEnvelope(await patch(g.token, { notify_push: 'yes', first_name: 7 }), 422, 'schema_invalid');
    expect([...e.details.fields].sort()).toEqual(['first_name', 'notify_push']);
  });

  it('reports every broken rule at once: details.fields names them all, each with its reason', async () => {
    const g = await signedIn(t);
    const e = expectEnvelope(
      await patch(g.token, { birth_date: '2999-01-01', phone: '12', citizenship: 'XX', first_name: ' ' }),
      400,
      'validation_error',
    );
    expect([...e.details.fields].sort()).toEqual(['birth_date', 'citizenship', 'first_name', 'phone']);
    expect(e.details.field).toBe(e.details.fields[0]);
    const reasons = Object.fromEntries(e.details.issues.map((i: any) => [i.field, i.reason]));
    expect(reasons).toMatchObject({ birth_date: 'in_future', phone: 'not_e164', citizenship: 'unknown_country' });
    // One rule broken: the answer is as it always was.
    const one = expectEnvelope(await patch(g.token, { phone: '12' }), 400, 'validation_error');
    expect(one.details.field).toBe('phone');
  });
});

describe('the profile status tells the truth (DESIGN G3b)', () => {
  it('is pending_deletion from a delete-request until the link lapses', async () => {
    const g = await signedIn(t);
    expect((await me(g.token)).body.status).toBe('active');
    expect((await http(t.url, 'POST', '/v1/auth/delete-request', { token: g.token })).status).toBe(202);
    await waitForMail(t, g.email, /delet/i);
    expect((await me(g.token)).body.status).toBe('pending_deletion');
    // The link lapses: the account is active again.
    await t.sql.query(
      `update email_tokens set expires_at = now() - interval '1 second' where account_id = $1 and purpose = 'delete_account'`,
      [g.accountId],
    );
    expect((await me(g.token)).body.status).toBe('active');
  });

  it('is restricted while a restriction is active, active again when it is lifted', async () => {
    const g = await signedIn(t);
    await t.sql.query(
      `insert into account_restrictions (account_id, kind, reason) values ($1, 'booking', 'chargebacks')`,
      [g.accountId],
    );
    const restricted = (await me(g.token)).body;
    expect(restricted.status).toBe('restricted');
    expect(restricted.restrictions.map((r: any) => r.kind)).toEqual(['booking']);
    await t.sql.query('update account_restrictions set lifted_at = now() where account_id = $1', [g.accountId]);
    expect((await me(g.token)).body.status).toBe('active');
  });
});

describe("sessions' last_used_at moves when the session is used", () => {
  it('at most once a minute, for the session that made the call', async () => {
    const g = await signedIn(t);
    const other = await login(t, g.email);
    // Both sessions were last used two minutes ago.
    await t.sql.query(`update sessions set last_used_at = now() - interval '2 minutes' where account_id = $1`, [
      g.accountId,
    ]);
    const before = Date.now() - 60_000;
    const list = (await http(t.url, 'GET', '/v1/me/sessions', { token: g.token })).body as any[];
    const mine = list.find((s) => s.current)!;
    const theirs = list.find((s) => s.id === other.body.session_id)!;
    expect(Date.parse(mine.last_used_at)).toBeGreaterThan(before);
    expect(Date.parse(theirs.last_used_at)).toBeLessThan(before);
    // Used again within the minute: unchanged.
    const again = (await http(t.url, 'GET', '/v1/me/sessions', { token: g.token })).body as any[];
    expect(again.find((s) => s.current)!.last_used_at).toBe(mine.last_used_at);
  });
});
