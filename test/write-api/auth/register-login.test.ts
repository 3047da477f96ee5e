import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/test-app.ts';
import { expectEnvelope, http } from '../../support/http.ts';
import { login, PASSWORD, register, startAuthApp, uniqueEmail } from './support.ts';

let t: TestApp;
beforeAll(async () => {
  // Several wrong passwords against one email here: no captcha or back-off in the way (those
  // have their own files).
  t = await startAuthApp({ CAPTCHA_AFTER_FAILED_LOGINS_PER_EMAIL: 100, LOGIN_BACKOFF_FREE_FAILURES: 100 });
});
afterAll(async () => t?.close());

const base = () => ({
  first_name: 'Anna',
  last_name: 'Lee',
  email: uniqueEmail(),
  password: PASSWORD,
  accept_terms: true,
});
const post = (body: unknown, headers: Record<string, string> = {}) =>
  http(t.url, 'POST', '/v1/auth/register', { body, headers });

describe('POST /v1/auth/register', () => {
  it('creates an account hashed with argon2id at >= 19 MiB / 2 iterations, never storing the password', async () => {
    const u = await register(t, { marketing_opt_in: true });
    const { rows } = await t.sql.query('select * from accounts where id = $1', [u.accountId]);
    const a = rows[0];
    expect(a.password_hash).toMatch(/^\$argon2id\$v=19\$m=\d+,p=\d+,t=\d+\$/);
    const m = /m=(\d+)/.exec(a.password_hash)![1];
    const tc = /t=(\d+)/.exec(a.password_hash)![1];
    expect(Number(m)).toBeGreaterThanOrEqual(19_456);
    expect(Number(tc)).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(a)).not.toContain(PASSWORD);
    expect(a).toMatchObject({ email: u.email, status: 'active', marketing_opt_in: true, email_confirmed_at: null });
    expect(a.terms_accepted_at).not.toBeNull();
  });

  it('needs accept_terms = true: false is 400 validation_error on accept_terms, missing is 422', async () => {
    const e = expectEnvelope(await post({ ...base(), accept_terms: false }), 400, 'validation_error');
    expect(e.details.field).toBe('accept_terms');
    const { accept_terms: _, ...rest } = base();
    expect(expectEnvelope(await post(rest), 422, 'schema_invalid').details.fields).toEqual(['accept_terms']);
  });

  it('answers 422 schema_invalid naming the fields for missing or mistyped fields', async () => {
    const e = expectEnvelope(
      await post({ email: 'not-an-email', password: 5, accept_terms: true }),
      422,
      'schema_invalid',
    );
    expect(e.details.fields).toEqual(expect.arrayContaining(['first_name', 'last_name', 'email', 'password']));
  });

  it('applies the password rules of G5a as 400 validation_error on password with a reason', async () => {
    const cases: Array<[string, string]> = [
      ['short1234', 'too_short'],
      ['x'.repeat(129), 'too_long'],
      ['password1234', 'common'],
      ['qwertyuiop', 'common'],
    ];
    for (const [password, reason] of cases) {
      const e = expectEnvelope(await post({ ...base(), password }), 400, 'validation_error');
      expect([password, e.details]).toEqual([password, expect.objectContaining({ field: 'password', reason })]);
    }
    const email = uniqueEmail('samepass');
    const same = expectEnvelope(
      await post({ ...base(), email, password: email.toUpperCase() }),
      400,
      'validation_error',
    );
    expect(same.details).toMatchObject({ field: 'password', reason: 'equals_email' });
    // 10 characters of any kind, no composition rules; 128 is the upper bound; counted in characters.
    expect((await post({ ...base(), password: 'ahtnoeusnh' })).status).toBe(201);
    const varied = Array.from({ length: 128 }, (_, i) => String.fromCodePoint(0xe0 + ((i * 7) % 31))).join('');
    expect((await post({ ...base(), password: varied })).status).toBe(201);
    expect((await post({ ...base(), password: '🙂🌴🐘🍍🚲🎒🌊🦀🍜🛶' })).status).toBe(201);
  });

  it('answers 409 conflict (email_taken) for an email that exists, in any letter case, creating nothing', async () => {
    const u = await register(t);
    const e = expectEnvelope(await post({ ...base(), email: u.email.toUpperCase() }), 409, 'conflict');
    expect(e.details.reason).toBe('email_taken');
    const { rows } = await t.sql.query('select count(*)::int as n from accounts where email = $1', [u.email]);
    expect(rows[0].n).toBe(1);
    const { rows: mail } = await t.sql.query('select count(*)::int as n from mail_outbox where "to" = $1', [u.email]);
    expect(mail[0].n).toBe(1); // only the first registration's confirmation
  });

  it('honours Idempotency-Key: a repeat replays the 201 and creates no second account or session', async () => {
    const body = base();
    const headers = { 'idempotency-key': `register-${body.email.replace(/[^a-z0-9]/g, '-')}` };
    const first = await post(body, headers);
    const second = await post(body, headers);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    const { rows } = await t.sql.query(
      'select count(*)::int as n from sessions s join accounts a on a.id = s.account_id where a.email = $1',
      [body.email],
    );
    expect(rows[0].n).toBe(1);
  });

  it('the same Idempotency-Key with another body, signed out: 409 key_reused and no second account (issue 34)', async () => {
    const first = base();
    const other = base();
    const headers = { 'idempotency-key': `register-twice-${first.email.replace(/[^a-z0-9]/g, '-')}` };
    expect((await post(first, headers)).status).toBe(201);
    const e = expectEnvelope(await post(other, headers), 409, 'conflict');
    expect(e.details.reason).toBe('key_reused');
    const { rows } = await t.sql.query('select count(*)::int as n from accounts where email = any($1)', [
      [first.email, other.email],
    ]);
    expect(rows[0].n).toBe(1);
  });
});

describe('POST /v1/auth/login', () => {
  it('signs in with the right password, the email in any case', async () => {
    const u = await register(t);
    const res = await login(t, `  ${u.email.toUpperCase()}`.trim());
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 900, refresh_token: expect.any(String) });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect((await http(t.url, 'GET', '/v1/auth/sessions', { token: res.body.access_token })).status).toBe(200);
  });

  it('checks the password exactly as it was set: no truncation, trimming or case folding', async () => {
    // ASVS 5.0 6.2.8, docs/security.md. A long password whose first 72 bytes match is not the
    // same password either (bcrypt would cut there).
    const long = `${'a long passphrase, '.repeat(5)}and its end`;
    const u = await register(t, { password: long });
    for (const near of [long.toUpperCase(), ` ${long}`, `${long} `, long.slice(0, -1), long.slice(0, 72)]) {
      expectEnvelope(await login(t, u.email, near), 401, 'unauthorized');
    }
    expect((await login(t, u.email, long)).status).toBe(200);
  });

  it('answers a wrong password and an unknown email alike: 401 unauthorized, same message and details', async () => {
    const u = await register(t);
    const wrong = expectEnvelope(await login(t, u.email, 'not the password at all'), 401, 'unauthorized');
    const unknown = expectEnvelope(await login(t, uniqueEmail('ghost')), 401, 'unauthorized');
    expect(wrong.message).toBe(unknown.message);
    expect(wrong.details).toEqual(unknown.details);
  });

  it('answers 422 for a body without password', async () => {
    expect(
      expectEnvelope(
        await http(t.url, 'POST', '/v1/auth/login', { body: { email: uniqueEmail() } }),
        422,
        'schema_invalid',
      ).details.fields,
    ).toEqual(['password']);
  });
});

describe('GET /v1/auth/email-availability', () => {
  it('says whether an email is free, regardless of letter case', async () => {
    const u = await register(t);
    const taken = await http(
      t.url,
      'GET',
      `/v1/auth/email-availability?email=${encodeURIComponent(u.email.toUpperCase())}`,
    );
    expect(taken.body).toEqual({ available: false });
    const free = await http(t.url, 'GET', `/v1/auth/email-availability?email=${encodeURIComponent(uniqueEmail())}`);
    expect(free.body).toEqual({ available: true });
  });

  it('applies the 3 to 320 length rule and refuses a non-email with 400 validation_error on email', async () => {
    for (const email of ['a@', 'a'.repeat(311) + '@example.com', '']) {
      const e = expectEnvelope(
        await http(t.url, 'GET', `/v1/auth/email-availability?email=${encodeURIComponent(email)}`),
        400,
        'validation_error',
      );
      expect(e.details.field).toBe('email');
    }
    expect(
      expectEnvelope(await http(t.url, 'GET', '/v1/auth/email-availability'), 400, 'validation_error').details.field,
    ).toBe('email');
    expect(
      expectEnvelope(await http(t.url, 'GET', '/v1/auth/email-availability?email=abc'), 400, 'validation_error').details
        .reason,
    ).toBe('invalid_email');
  });
});
