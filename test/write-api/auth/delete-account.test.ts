import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/test-app.ts';
import { expectEnvelope, http } from '../../support/http.ts';
import { login, register, solvedCaptcha, startAuthApp, waitForMail } from './support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startAuthApp();
});
afterAll(async () => t?.close());

const requestDeletion = (
  token: string,
  opts: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
) => http(t.url, 'POST', '/v1/auth/delete-request', { token, ...opts });

describe('account deletion', () => {
  it('delete-request is 202 with an empty body and mails a confirmation; delete-confirm erases the person', async () => {
    const u = await register(t);
    const phone = await login(t, u.email);
    const req = await requestDeletion(u.tokens.access_token);
    expect([req.status, req.text]).toEqual([202, '']);
    const { token, mail } = await waitForMail(t, u.email, /deletion/i);
    expect(mail.text).toContain('token=');

    // Requesting alone changes nothing.
    expect((await http(t.url, 'GET', '/v1/auth/sessions', { token: u.tokens.access_token })).status).toBe(200);

    const res = await http(t.url, 'POST', '/v1/auth/delete-confirm', { body: { token } });
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);

    // Every session ended at once.
    for (const access of [u.tokens.access_token, phone.body.access_token]) {
      expectEnvelope(await http(t.url, 'GET', '/v1/auth/sessions', { token: access }), 401, 'unauthorized');
    }
    expectEnvelope(
      await http(t.url, 'POST', '/v1/auth/refresh', { body: { refresh_token: phone.body.refresh_token } }),
      401,
      'unauthorized',
    );
    // A later login fails.
    expectEnvelope(await login(t, u.email), 401, 'unauthorized');

    // Personal data erased; the id stays as a tombstone for records the law keeps.
    const { rows } = await t.sql.query('select * from accounts where id = $1', [u.accountId]);
    expect(rows[0]).toMatchObject({
      status: 'deleted',
      email: null,
      password_hash: null,
      first_name: '',
      last_name: '',
    });
    expect(rows[0].deleted_at).not.toBeNull();
    const { rows: s } = await t.sql.query('select ip, user_agent, closed_at from sessions where account_id = $1', [
      u.accountId,
    ]);
    expect(s.every((r) => r.ip === '' && r.user_agent === null && r.closed_at !== null)).toBe(true);
    const left = await t.sql.query(
      `select (select count(*)::int from mail_outbox where account_id = $1 or "to" = $2) as mails,
              (select count(*)::int from email_tokens where account_id = $1) as tokens`,
      [u.accountId, u.email],
    );
    expect(left.rows[0]).toEqual({ mails: 0, tokens: 0 });

    // The email is free again, and can start a new, separate account.
    const avail = await http(t.url, 'GET', `/v1/auth/email-availability?email=${encodeURIComponent(u.email)}`);
    expect(avail.body).toEqual({ available: true });
    const again = await register(t, { email: u.email });
    expect(again.accountId).not.toBe(u.accountId);
  });

  it('the deletion token is single use and expires', async () => {
    const u = await register(t);
    await requestDeletion(u.tokens.access_token);
    const { token } = await waitForMail(t, u.email, /deletion/i);
    await t.sql.query(
      `update email_tokens set expires_at = now() - interval '1 second' where account_id = $1 and purpose = 'delete_account'`,
      [u.accountId],
    );
    expectEnvelope(await http(t.url, 'POST', '/v1/auth/delete-confirm', { body: { token } }), 400, 'validation_error');
    expect((await http(t.url, 'GET', '/v1/auth/sessions', { token: u.tokens.access_token })).status).toBe(200);

    await requestDeletion(u.tokens.access_token);
    const second = await waitForMail(t, u.email, /deletion/i, 2);
    expect((await http(t.url, 'POST', '/v1/auth/delete-confirm', { body: { token: second.token } })).status).toBe(200);
    expectEnvelope(
      await http(t.url, 'POST', '/v1/auth/delete-confirm', { body: { token: second.token } }),
      400,
      'validation_error',
    );
  });

  it('a confirm-email token cannot delete an account', async () => {
    const u = await register(t);
    const { token } = await waitForMail(t, u.email, /confirm your email/i);
    expectEnvelope(await http(t.url, 'POST', '/v1/auth/delete-confirm', { body: { token } }), 400, 'validation_error');
    const { rows } = await t.sql.query('select status from accounts where id = $1', [u.accountId]);
    expect(rows[0].status).toBe('active');
  });

  it('the body is optional: none, null, {} and an empty pair pass; a wrong pair does not', async () => {
    const u = await register(t);
    expect(
      (
        await requestDeletion(u.tokens.access_token, {
          rawBody: 'null',
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(202);
    expect((await requestDeletion(u.tokens.access_token, { body: {} })).status).toBe(202);
    const other = await register(t);
    expect(
      (await requestDeletion(other.tokens.access_token, { body: { captcha_id: '', captcha_answer: '' } })).status,
    ).toBe(202);
    const wrong = await requestDeletion(other.tokens.access_token, {
      body: { captcha_id: '00000000-0000-4000-8000-000000000000', captcha_answer: '10' },
    });
    expectEnvelope(wrong, 403, 'captcha_required');
    expectEnvelope(
      await requestDeletion(other.tokens.access_token, { body: { captcha_id: 5 } }),
      422,
      'schema_invalid',
    );
  });

  it('repeated deletion requests make the client look like a robot: the 4th within the hour needs a captcha', async () => {
    const u = await register(t);
    for (let i = 0; i < 3; i++) expect((await requestDeletion(u.tokens.access_token)).status).toBe(202);
    expectEnvelope(await requestDeletion(u.tokens.access_token), 403, 'captcha_required');
    expect(
      (
        await requestDeletion(u.tokens.access_token, {
          body: await solvedCaptcha(t, 0, { token: u.tokens.access_token }),
        })
      ).status,
    ).toBe(202);
    // Every accepted request mails a confirmation; the mails go out through the outbox job.
    expect((await waitForMail(t, u.email, /deletion/i, 4)).all).toHaveLength(4);
  });

  it('delete-request needs sign-in', async () => {
    expectEnvelope(await http(t.url, 'POST', '/v1/auth/delete-request'), 401, 'unauthorized');
  });
});
