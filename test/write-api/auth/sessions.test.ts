import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/test-app.ts';
import { expectEnvelope, http } from '../../support/http.ts';
import { eventually } from '../../support/eventually.ts';
import { jobsCompleted } from '../../support/jobs.ts';
import { createServer } from '@guest/http-kit';
import { createRuntime } from '@guest/runtime';
import { writeApi } from '@guest/write-api';
import { login, PASSWORD, register, startAuthApp, waitForMail } from './support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startAuthApp();
});
afterAll(async () => t?.close());

const sessionsOf = (token: string) => http(t.url, 'GET', '/v1/auth/sessions', { token });
const refresh = (refresh_token: string) => http(t.url, 'POST', '/v1/auth/refresh', { body: { refresh_token } });
async function expectSignedOut(access: string, refreshToken: string) {
  const e = expectEnvelope(await sessionsOf(access), 401, 'unauthorized');
  expect(e.details.reason).toBe('session_closed');
  expectEnvelope(await refresh(refreshToken), 401, 'unauthorized');
}

describe('Session: none -> active (register, login)', () => {
  it('register answers 201 with a token pair and session_id, and the session is listed as current', async () => {
    const u = await register(t);
    expect(u.tokens).toMatchObject({ token_type: 'Bearer', expires_in: 900 });
    expect(u.tokens.session_id).toMatch(/^[0-9a-f-]{36}$/);
    const list = await sessionsOf(u.tokens.access_token);
    expect(list.status).toBe(200);
    expect(list.body).toHaveLength(1);
    expect(list.body[0]).toMatchObject({ id: u.tokens.session_id, current: true, ip: '127.0.0.1' });
    for (const f of ['created_at', 'last_used_at', 'expires_at']) expect(Date.parse(list.body[0][f])).not.toBeNaN();
  });

  it('login opens a second, separate session with its own tokens', async () => {
    const u = await register(t);
    const res = await login(t, u.email.toUpperCase());
    expect(res.status).toBe(200);
    expect(res.body.session_id).not.toBe(u.tokens.session_id);
    expect(res.body.refresh_token).not.toBe(u.tokens.refresh_token);
    const list = await sessionsOf(res.body.access_token);
    expect(list.body.map((s: any) => [s.id, s.current]).sort()).toEqual(
      [
        [u.tokens.session_id, false],
        [res.body.session_id, true],
      ].sort(),
    );
  });

  it('stores the refresh token only as its SHA-256', async () => {
    const u = await register(t);
    const { rows } = await t.sql.query('select * from sessions where id = $1', [u.tokens.session_id]);
    expect(JSON.stringify(rows[0])).not.toContain(u.tokens.refresh_token);
    expect(rows[0].refresh_token_hash).toBe(createHash('sha256').update(u.tokens.refresh_token).digest('hex'));
  });
});

describe('Session: active -> active (refresh)', () => {
  it('returns a new access token, the same refresh token, and extends the session', async () => {
    const u = await register(t);
    // Age the session so that extension is visible.
    await t.sql.query(
      `update sessions set expires_at = now() + interval '1 day', last_used_at = now() - interval '29 days' where id = $1`,
      [u.tokens.session_id],
    );
    // a new iat, so a new token even without jti
    const { iat } = JSON.parse(Buffer.from(u.tokens.access_token.split('.')[1]!, 'base64url').toString()) as {
      iat: number;
    };
    await eventually('a second later than the iat of the first token', () => Math.floor(Date.now() / 1000), {
      intervalMs: 20,
      until: (now) => now > iat,
    });
    const res = await refresh(u.tokens.refresh_token);
    expect(res.status).toBe(200);
    expect(res.body.refresh_token).toBe(u.tokens.refresh_token);
    expect(res.body.session_id).toBe(u.tokens.session_id);
    expect(res.body.access_token).not.toBe(u.tokens.access_token);
    const { rows } = await t.sql.query(
      `select expires_at > now() + interval '29 days' as extended, last_used_at > now() - interval '1 minute' as used from sessions where id = $1`,
      [u.tokens.session_id],
    );
    expect(rows[0]).toEqual({ extended: true, used: true });
    expect((await sessionsOf(res.body.access_token)).status).toBe(200);
  });

  it('never extends a session past its absolute end (180 days)', async () => {
    const u = await register(t);
    await t.sql.query(`update sessions set absolute_expires_at = now() + interval '2 days' where id = $1`, [
      u.tokens.session_id,
    ]);
    expect((await refresh(u.tokens.refresh_token)).status).toBe(200);
    const { rows } = await t.sql.query(
      `select expires_at = absolute_expires_at as capped from sessions where id = $1`,
      [u.tokens.session_id],
    );
    expect(rows[0].capped).toBe(true);
  });

  it('answers 401 to an unknown refresh token and to one of an expired session', async () => {
    expectEnvelope(await refresh('not-a-real-refresh-token'), 401, 'unauthorized');
    const u = await register(t);
    await t.sql.query(`update sessions set expires_at = now() - interval '1 second' where id = $1`, [
      u.tokens.session_id,
    ]);
    expectEnvelope(await refresh(u.tokens.refresh_token), 401, 'unauthorized');
    // An idle-expired session also stops its still-unexpired access token.
    expectEnvelope(await sessionsOf(u.tokens.access_token), 401, 'unauthorized');
  });

  it('answers 422 when refresh_token is missing', async () => {
    const e = expectEnvelope(await http(t.url, 'POST', '/v1/auth/refresh', { body: {} }), 422, 'schema_invalid');
    expect(e.details.fields).toEqual(['refresh_token']);
  });
});

describe('Session: active -> closed', () => {
  it('logout ends the current session at once: its access token is 401 on the very next call', async () => {
    const u = await register(t);
    const other = await login(t, u.email);
    const out = await http(t.url, 'POST', '/v1/auth/logout', { token: u.tokens.access_token });
    expect(out.status).toBe(200);
    expect(out.body.ok).toBe(true);
    await expectSignedOut(u.tokens.access_token, u.tokens.refresh_token);
    // Other sessions are untouched.
    expect((await sessionsOf(other.body.access_token)).status).toBe(200);
  });

  it('a token just used on GET /v1/me fails at once after logout, here and on a second server', async () => {
    // The second server has its own runtime (pool, Redis client) on the same database: what a
    // second process of the API sees. Each has just checked the token, so a remembered check
    // must not outlive the session.
    const runtime = createRuntime(t.config);
    const second = await createServer({ runtime, apps: [writeApi], version: 'test', logger: false });
    try {
      await second.listen({ host: '127.0.0.1', port: 0 });
      const addr = second.server.address();
      const secondUrl = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
      const u = await register(t);
      const token = u.tokens.access_token;
      expect((await http(t.url, 'GET', '/v1/me', { token })).status).toBe(200);
      expect((await http(secondUrl, 'GET', '/v1/me', { token })).status).toBe(200);
      expect((await http(t.url, 'POST', '/v1/auth/logout', { token })).status).toBe(200);
      for (const url of [secondUrl, t.url]) {
        const e = expectEnvelope(await http(url, 'GET', '/v1/me', { token }), 401, 'unauthorized');
        expect(e.details.reason).toBe('session_closed');
      }
    } finally {
      await second.close();
      await runtime.close();
    }
  });

  it('logout-all ends every other session and keeps the current one', async () => {
    const u = await register(t);
    const a = await login(t, u.email);
    const b = await login(t, u.email);
    const res = await http(t.url, 'POST', '/v1/auth/logout-all', { token: a.body.access_token });
    expect(res.status).toBe(200);
    await expectSignedOut(u.tokens.access_token, u.tokens.refresh_token);
    await expectSignedOut(b.body.access_token, b.body.refresh_token);
    const list = await sessionsOf(a.body.access_token);
    expect(list.status).toBe(200);
    expect(list.body.map((s: any) => s.id)).toEqual([a.body.session_id]);
    expect((await refresh(a.body.refresh_token)).status).toBe(200);
  });

  it("DELETE /v1/me/sessions/{id} ends another session of one's own", async () => {
    const u = await register(t);
    const phone = await login(t, u.email);
    const res = await http(t.url, 'DELETE', `/v1/me/sessions/${phone.body.session_id}`, {
      token: u.tokens.access_token,
    });
    expect(res.status).toBe(200);
    await expectSignedOut(phone.body.access_token, phone.body.refresh_token);
    const me = await http(t.url, 'GET', '/v1/me/sessions', { token: u.tokens.access_token });
    expect(me.body.map((s: any) => s.id)).toEqual([u.tokens.session_id]);
    // Already closed: nothing left to end.
    expectEnvelope(
      await http(t.url, 'DELETE', `/v1/me/sessions/${phone.body.session_id}`, { token: u.tokens.access_token }),
      404,
      'not_found',
    );
  });

  it("DELETE of someone else's session is 404 and leaves it alive", async () => {
    const anna = await register(t);
    const bob = await register(t);
    const res = await http(t.url, 'DELETE', `/v1/me/sessions/${bob.tokens.session_id}`, {
      token: anna.tokens.access_token,
    });
    expectEnvelope(res, 404, 'not_found');
    expect((await sessionsOf(bob.tokens.access_token)).status).toBe(200);
  });

  it('DELETE with an unknown id is 404 and with a malformed id 400 validation_error', async () => {
    const u = await register(t);
    expectEnvelope(
      await http(t.url, 'DELETE', '/v1/me/sessions/00000000-0000-4000-8000-000000000000', {
        token: u.tokens.access_token,
      }),
      404,
      'not_found',
    );
    const e = expectEnvelope(
      await http(t.url, 'DELETE', '/v1/me/sessions/not-a-uuid', { token: u.tokens.access_token }),
      400,
      'validation_error',
    );
    expect(e.details.field).toBe('session_id');
  });

  it('GET /v1/me/sessions is the same list as GET /v1/auth/sessions', async () => {
    const u = await register(t);
    await login(t, u.email);
    const a = await sessionsOf(u.tokens.access_token);
    const b = await http(t.url, 'GET', '/v1/me/sessions', { token: u.tokens.access_token });
    expect(b.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(a.body).toHaveLength(2);
  });
});

describe('Password reset and change', () => {
  it('password-reset request is 202 with an empty body whether the email exists or not', async () => {
    const u = await register(t);
    const known = await http(t.url, 'POST', '/v1/auth/password-reset/request', { body: { email: u.email } });
    const unknown = await http(t.url, 'POST', '/v1/auth/password-reset/request', {
      body: { email: 'nobody-here@example.com' },
    });
    expect([known.status, known.text]).toEqual([202, '']);
    expect([unknown.status, unknown.text]).toEqual([202, '']);
    await waitForMail(t, u.email, /reset your password/i);
  });

  it('password-reset confirm sets the password and ends every session', async () => {
    const u = await register(t);
    const other = await login(t, u.email);
    await http(t.url, 'POST', '/v1/auth/password-reset/request', { body: { email: u.email } });
    const { token } = await waitForMail(t, u.email, /reset your password/i);

    // A weak password is refused and does not use the token up.
    const weak = await http(t.url, 'POST', '/v1/auth/password-reset/confirm', { body: { token, password: 'short' } });
    expect(expectEnvelope(weak, 400, 'validation_error').details).toMatchObject({
      field: 'password',
      reason: 'too_short',
    });

    const res = await http(t.url, 'POST', '/v1/auth/password-reset/confirm', {
      body: { token, password: 'a brand new passphrase' },
    });
    expect(res.status).toBe(200);
    await expectSignedOut(u.tokens.access_token, u.tokens.refresh_token);
    await expectSignedOut(other.body.access_token, other.body.refresh_token);
    expectEnvelope(await login(t, u.email, PASSWORD), 401, 'unauthorized');
    expect((await login(t, u.email, 'a brand new passphrase')).status).toBe(200);

    // Single use.
    const again = await http(t.url, 'POST', '/v1/auth/password-reset/confirm', {
      body: { token, password: 'yet another passphrase' },
    });
    expect(expectEnvelope(again, 400, 'validation_error').details.field).toBe('token');
  });

  it('an expired reset token is refused', async () => {
    const u = await register(t);
    await http(t.url, 'POST', '/v1/auth/password-reset/request', { body: { email: u.email } });
    const { token } = await waitForMail(t, u.email, /reset your password/i);
    await t.sql.query(`update email_tokens set expires_at = now() - interval '1 second' where account_id = $1`, [
      u.accountId,
    ]);
    const res = await http(t.url, 'POST', '/v1/auth/password-reset/confirm', {
      body: { token, password: 'a brand new passphrase' },
    });
    expect(expectEnvelope(res, 400, 'validation_error').details).toMatchObject({
      field: 'token',
      reason: 'invalid_or_expired',
    });
  });

  it('sends at most 3 reset mails per hour to one email, still answering 202', async () => {
    const u = await register(t);
    for (let i = 0; i < 5; i++) {
      const r = await http(t.url, 'POST', '/v1/auth/password-reset/request', { body: { email: u.email } });
      expect(r.status).toBe(202);
    }
    const { all } = await waitForMail(t, u.email, /reset your password/i, 3);
    await jobsCompleted(t, ['auth.password-reset', 'mail.deliver']);
    const { rows } = await t.sql.query(
      `select count(*)::int as n from mail_outbox where "to" = $1 and subject ilike '%reset%'`,
      [u.email],
    );
    expect(rows[0].n).toBe(3);
    expect(all.length).toBe(3);
  });

  it('password change keeps the current session and ends the others', async () => {
    const u = await register(t);
    const other = await login(t, u.email);
    const res = await http(t.url, 'POST', '/v1/auth/password/change', {
      token: u.tokens.access_token,
      body: { current_password: PASSWORD, new_password: 'another good passphrase' },
    });
    expect(res.status).toBe(200);
    expect((await sessionsOf(u.tokens.access_token)).status).toBe(200);
    expect((await refresh(u.tokens.refresh_token)).status).toBe(200);
    await expectSignedOut(other.body.access_token, other.body.refresh_token);
    expect((await login(t, u.email, 'another good passphrase')).status).toBe(200);
  });

  it('password change refuses a wrong current password, a weak or unchanged new one (400 naming the field)', async () => {
    const u = await register(t);
    const change = (body: object) =>
      http(t.url, 'POST', '/v1/auth/password/change', { token: u.tokens.access_token, body });
    expect(
      expectEnvelope(
        await change({ current_password: 'wrong password!', new_password: 'another good passphrase' }),
        400,
        'validation_error',
      ).details,
    ).toMatchObject({ field: 'current_password', reason: 'wrong_password' });
    expect(
      expectEnvelope(await change({ current_password: PASSWORD, new_password: 'password123' }), 400, 'validation_error')
        .details,
    ).toMatchObject({ field: 'new_password', reason: 'common' });
    expect(
      expectEnvelope(await change({ current_password: PASSWORD, new_password: PASSWORD }), 400, 'validation_error')
        .details,
    ).toMatchObject({ field: 'new_password', reason: 'same_as_current' });
    expectEnvelope(
      await http(t.url, 'POST', '/v1/auth/password/change', { body: { current_password: 'x', new_password: 'y' } }),
      401,
      'unauthorized',
    );
  });
});
