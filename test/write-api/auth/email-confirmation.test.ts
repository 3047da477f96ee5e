import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/test-app.ts';
import { expectEnvelope, http } from '../../support/http.ts';
import { jobsCompleted } from '../../support/jobs.ts';
import { confirmEmail, mailsTo, register, startAuthApp, waitForMail } from './support.ts';

let t: TestApp;
// The mails link to the web client's pages on the public base URL (APP_LINK_BASE_URL unset).
const PUBLIC = 'https://guest.example.test';
beforeAll(async () => {
  t = await startAuthApp({ PUBLIC_BASE_URL: PUBLIC });
});
afterAll(async () => t?.close());

const wsTicket = (token: string) => http(t.url, 'POST', '/v1/auth/ws-ticket', { token });

describe('email confirmation', () => {
  it('registration mails a link whose token query parameter confirms the email', async () => {
    const u = await register(t);
    const { mail, token } = await waitForMail(t, u.email, /confirm your email/i);
    expect(mail).toMatchObject({ to: u.email, subject: expect.any(String), text: expect.stringContaining('token=') });
    expect(Date.parse(mail.created_at)).not.toBeNaN();
    const link = new URL(/https?:\/\/\S+/.exec(mail.text)![0]);
    expect(link.origin + link.pathname).toBe(`${PUBLIC}/account/confirm-email`);

    expectEnvelope(await wsTicket(u.tokens.access_token), 403, 'email_not_confirmed');
    const res = await http(t.url, 'POST', '/v1/auth/confirm-email', { body: { token } });
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    expect((await wsTicket(u.tokens.access_token)).status).toBe(200);
    const { rows } = await t.sql.query('select email_confirmed_at from accounts where id = $1', [u.accountId]);
    expect(rows[0].email_confirmed_at).not.toBeNull();
  });

  it('the token is single use and stored only as a hash', async () => {
    const u = await register(t);
    const { token } = await waitForMail(t, u.email, /confirm your email/i);
    const { rows } = await t.sql.query('select * from email_tokens where account_id = $1', [u.accountId]);
    expect(JSON.stringify(rows)).not.toContain(token);
    expect((await http(t.url, 'POST', '/v1/auth/confirm-email', { body: { token } })).status).toBe(200);
    const again = await http(t.url, 'POST', '/v1/auth/confirm-email', { body: { token } });
    expect(expectEnvelope(again, 400, 'validation_error').details).toMatchObject({
      field: 'token',
      reason: 'invalid_or_expired',
    });
  });

  it('an expired or unknown token is 400 on token, and the email stays unconfirmed', async () => {
    const u = await register(t);
    const { token } = await waitForMail(t, u.email, /confirm your email/i);
    await t.sql.query(`update email_tokens set expires_at = now() - interval '1 second' where account_id = $1`, [
      u.accountId,
    ]);
    expectEnvelope(await http(t.url, 'POST', '/v1/auth/confirm-email', { body: { token } }), 400, 'validation_error');
    expectEnvelope(
      await http(t.url, 'POST', '/v1/auth/confirm-email', { body: { token: 'nope' } }),
      400,
      'validation_error',
    );
    expectEnvelope(await wsTicket(u.tokens.access_token), 403, 'email_not_confirmed');
  });

  it('resend-confirmation sends a new link, the old one stops working, and it is limited to 3 an hour', async () => {
    const u = await register(t);
    const first = await waitForMail(t, u.email, /confirm your email/i);
    const resend = () => http(t.url, 'POST', '/v1/auth/resend-confirmation', { token: u.tokens.access_token });
    const r1 = await resend();
    expect(r1.status).toBe(200);
    const second = await waitForMail(t, u.email, /confirm your email/i, 2);
    expect(second.token).not.toBe(first.token);
    expectEnvelope(
      await http(t.url, 'POST', '/v1/auth/confirm-email', { body: { token: first.token } }),
      400,
      'validation_error',
    );

    expect((await resend()).status).toBe(200);
    expect((await resend()).status).toBe(200);
    const over = await resend();
    expectEnvelope(over, 429, 'rate_limited');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);

    const latest = await waitForMail(t, u.email, /confirm your email/i, 4);
    expect((await http(t.url, 'POST', '/v1/auth/confirm-email', { body: { token: latest.token } })).status).toBe(200);
    const done = await resend();
    expect(done.status).toBe(200);
    expect(done.body.message).toMatch(/already confirmed/i);
  });

  it('resend-confirmation needs sign-in', async () => {
    expectEnvelope(await http(t.url, 'POST', '/v1/auth/resend-confirmation'), 401, 'unauthorized');
  });

  it('a failed registration (conflict) writes no mail at all', async () => {
    const u = await register(t);
    await confirmEmail(t, u.email);
    const before = (await mailsTo(t, u.email)).length;
    const dup = await http(t.url, 'POST', '/v1/auth/register', {
      body: { first_name: 'X', last_name: 'Y', email: u.email, password: 'some good passphrase', accept_terms: true },
    });
    expectEnvelope(dup, 409, 'conflict');
    const { rows } = await t.sql.query('select count(*)::int as n from mail_outbox where "to" = $1', [u.email]);
    expect(rows[0].n).toBe(1);
    await jobsCompleted(t, ['mail.deliver']);
    expect((await mailsTo(t, u.email)).length).toBe(before);
  });
});
