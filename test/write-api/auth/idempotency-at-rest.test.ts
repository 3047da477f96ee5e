import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/test-app.ts';
import { expectEnvelope, http } from '../../support/http.ts';
import { PASSWORD, startAuthApp, uniqueEmail } from './support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startAuthApp();
});
afterAll(async () => t?.close());

describe('Idempotency-Key on register keeps no plain token at rest (DESIGN G5b)', () => {
  it('the stored reply holds neither token nor password, and the replay returns the same tokens with Cache-Control: no-store', async () => {
    const email = uniqueEmail('idem');
    const body = { first_name: 'Anna', last_name: 'Lee', email, password: PASSWORD, accept_terms: true };
    const headers = { 'idempotency-key': `register-at-rest-${Date.now()}` };
    const first = await http(t.url, 'POST', '/v1/auth/register', { body, headers });
    expect(first.status).toBe(201);
    expect(first.headers.get('cache-control')).toBe('no-store');

    const { rows } = await t.sql.query('select * from idempotency_keys where key = $1', [headers['idempotency-key']]);
    expect(rows).toHaveLength(1);
    const row = JSON.stringify(rows[0]);
    for (const secret of [first.body.refresh_token, first.body.access_token, PASSWORD]) {
      expect(row).not.toContain(secret);
    }
    // Nor a fragment of one (a refresh token is base64url; no 16 characters of it may be there).
    expect(row).not.toContain(String(first.body.refresh_token).slice(0, 16));
    // Nor an unkeyed digest of the request, which holds the password: it could be tested offline.
    const sorted = Object.fromEntries(
      Object.entries({ ...body, captcha_id: '', captcha_answer: '', marketing_opt_in: false }).sort(),
    );
    const plainDigest = createHash('sha256')
      .update(`POST /v1/auth/register\n${JSON.stringify(sorted)}`)
      .digest('hex');
    expect(rows[0].request_hash).not.toBe(plainDigest);

    const second = await http(t.url, 'POST', '/v1/auth/register', { body, headers });
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body).toEqual(first.body);
    expect(second.headers.get('cache-control')).toBe('no-store');
    expect(second.headers.get('content-type')).toBe(first.headers.get('content-type'));
    // The replayed refresh token is the live one of the one session.
    const refreshed = await http(t.url, 'POST', '/v1/auth/refresh', {
      body: { refresh_token: second.body.refresh_token },
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.session_id).toBe(first.body.session_id);
  });

  it('a stored reply that cannot be opened (altered, or sealed under another secret) is never replayed', async () => {
    const body = {
      first_name: 'Anna',
      last_name: 'Lee',
      email: uniqueEmail('idem'),
      password: PASSWORD,
      accept_terms: true,
    };
    const headers = { 'idempotency-key': `register-tamper-${Date.now()}` };
    const first = await http(t.url, 'POST', '/v1/auth/register', { body, headers });
    expect(first.status).toBe(201);
    await t.sql.query(`update idempotency_keys set response_body = $2 where key = $1`, [
      headers['idempotency-key'],
      JSON.stringify({ ...first.body, access_token: 'forged' }),
    ]);
    // The request runs again instead, and the email is taken by its first run.
    const again = await http(t.url, 'POST', '/v1/auth/register', { body, headers });
    expect(expectEnvelope(again, 409, 'conflict').details.reason).toBe('email_taken');
  });
});
