import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/test-app.ts';
import { expectEnvelope, http } from '../../support/http.ts';
import { PASSWORD, register, startAuthApp, uniqueEmail } from '../auth/support.ts';
import { signedIn } from '../profile/support.ts';
import { jpegWithGps } from '../profile/images.ts';

/**
 * Issue 10 point 2: requests as real clients send them. Bodiless POSTs with the JSON content type
 * most HTTP stacks add by default, and `Idempotency-Key` on every creating request.
 */
let t: TestApp;
beforeAll(async () => {
  // One proxy hop is trusted, so a test can play a phone whose address changes (X-Forwarded-For).
  t = await startAuthApp({ TRUST_PROXY: '1' });
});
afterAll(async () => t?.close());

const json = { 'content-type': 'application/json' };
const sessionsOf = async (accountId: string) =>
  Number(
    (await t.sql.query('select count(*) from sessions where account_id = $1 and closed_at is null', [accountId]))
      .rows[0].count,
  );

describe('an empty body with Content-Type: application/json is no body', () => {
  it('logout, ws-ticket and delete-request answer as without the header', async () => {
    const g = await signedIn(t);
    const ticket = await http(t.url, 'POST', '/v1/auth/ws-ticket', { token: g.token, rawBody: '', headers: json });
    expect(ticket.status).toBe(200);
    expect(typeof ticket.body.ticket).toBe('string');
    const del = await http(t.url, 'POST', '/v1/auth/delete-request', { token: g.token, rawBody: '', headers: json });
    expect(del.status).toBe(202);
    const out = await http(t.url, 'POST', '/v1/auth/logout', { token: g.token, rawBody: '', headers: json });
    expect(out.status).toBe(200);
  });

  it('a route that needs a body answers 422 schema_invalid, not malformed JSON', async () => {
    const res = await http(t.url, 'POST', '/v1/auth/login', { rawBody: '', headers: json });
    expectEnvelope(res, 422, 'schema_invalid');
  });
});

describe('Idempotency-Key on creating requests', () => {
  it('two logins with one key create one session and answer the same tokens', async () => {
    const u = await register(t);
    const body = { email: u.email, password: PASSWORD };
    const headers = { 'idempotency-key': `login-${u.accountId}` };
    const first = await http(t.url, 'POST', '/v1/auth/login', { body, headers });
    const second = await http(t.url, 'POST', '/v1/auth/login', { body, headers });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body.session_id).toBe(first.body.session_id);
    expect(await sessionsOf(u.accountId)).toBe(2); // the registration's and this login's
  });

  it('an anonymous key is not bound to the address: a phone moving from Wi-Fi to LTE gets its replay', async () => {
    const u = await register(t);
    const body = { email: u.email, password: PASSWORD };
    const key = { 'idempotency-key': `moving-phone-${u.accountId}` };
    const wifi = await http(t.url, 'POST', '/v1/auth/login', {
      body,
      headers: { ...key, 'x-forwarded-for': '192.0.2.10' },
    });
    const lte = await http(t.url, 'POST', '/v1/auth/login', {
      body,
      headers: { ...key, 'x-forwarded-for': '198.51.100.7' },
    });
    expect(wifi.status).toBe(200);
    expect(lte.status).toBe(200);
    expect(lte.headers.get('idempotent-replayed')).toBe('true');
    expect(lte.body.session_id).toBe(wifi.body.session_id);
  });

  it('a request refused by a rule is not kept: the corrected request with the same key proceeds', async () => {
    const email = uniqueEmail('idem-fix');
    const headers = { 'idempotency-key': `register-fix-${Date.now()}` };
    const base = { first_name: 'Anna', last_name: 'Lee', email, accept_terms: true };
    const weak = await http(t.url, 'POST', '/v1/auth/register', { body: { ...base, password: '1234567890' }, headers });
    expectEnvelope(weak, 400, 'validation_error');
    const fixed = await http(t.url, 'POST', '/v1/auth/register', { body: { ...base, password: PASSWORD }, headers });
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
  });

  it('a refused answer is never replayed: the same login with the same key succeeds once the account exists', async () => {
    const email = uniqueEmail('idem-later');
    const body = { email, password: PASSWORD };
    const headers = { 'idempotency-key': `login-later-${Date.now()}` };
    expectEnvelope(await http(t.url, 'POST', '/v1/auth/login', { body, headers }), 401, 'unauthorized');
    await register(t, { email });
    const again = await http(t.url, 'POST', '/v1/auth/login', { body, headers });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBeNull();
  });

  it('signed in, the key is the account’s: the same key with another body is 409 key_reused; a 422 is not kept', async () => {
    const g = await signedIn(t);
    const headers = { 'idempotency-key': 'device-reuse-0001' };
    const bad = await http(t.url, 'POST', '/v1/devices', {
      token: g.token,
      headers,
      body: { device_id: 'phone-1', platform: 'symbian', push_permission: true },
    });
    expectEnvelope(bad, 422, 'schema_invalid');
    const good = await http(t.url, 'POST', '/v1/devices', {
      token: g.token,
      headers,
      body: { device_id: 'phone-1', platform: 'ios', push_permission: true },
    });
    expect(good.status).toBe(200);
    const other = await http(t.url, 'POST', '/v1/devices', {
      token: g.token,
      headers,
      body: { device_id: 'phone-2', platform: 'ios', push_permission: true },
    });
    const e = expectEnvelope(other, 409, 'conflict');
    expect(e.details.reason).toBe('key_reused');
    // The 409 names this request, not the first one.
    expect(e.request_id).toBe(other.headers.get('x-request-id'));
    expect(e.request_id).not.toBe(good.headers.get('x-request-id'));
  });

  it('ws-ticket and the media ticket replay their answer for the same key', async () => {
    const g = await signedIn(t);
    const headers = { 'idempotency-key': '"ws-ticket 0001"' };
    const a = await http(t.url, 'POST', '/v1/auth/ws-ticket', { token: g.token, headers });
    const b = await http(t.url, 'POST', '/v1/auth/ws-ticket', { token: g.token, headers });
    expect(a.status).toBe(200);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    expect(b.body.ticket).toBe(a.body.ticket);
    expect(b.headers.get('x-request-id')).not.toBe(a.headers.get('x-request-id'));

    const form = new FormData();
    form.append('file', new Blob([await jpegWithGps()], { type: 'image/jpeg' }), 'me.jpg');
    const up = await fetch(`${t.url}/v1/me/avatar`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${g.token}` },
      body: form,
    });
    expect(up.status).toBe(200);
    const { rows } = await t.sql.query(
      `select id from media_files where owner_account_id = $1 and deleted_at is null`,
      [g.accountId],
    );
    const mediaId = rows[0].id;
    const mk = { 'idempotency-key': `media-ticket-${mediaId}` };
    const t1 = await http(t.url, 'POST', `/v1/media/${mediaId}/ticket`, { token: g.token, headers: mk });
    const t2 = await http(t.url, 'POST', `/v1/media/${mediaId}/ticket`, { token: g.token, headers: mk });
    expect(t1.status).toBe(200);
    expect(t2.body).toEqual(t1.body);
    const tickets = await t.sql.query('select count(*) from media_tickets where media_id = $1', [mediaId]);
    expect(Number(tickets.rows[0].count)).toBe(1);
  });

  it('the OpenAPI document declares the header on every creating operation', async () => {
    const doc = (await http(t.url, 'GET', '/v1/openapi.json')).body;
    const creating: Array<[string, string]> = [
      ['/v1/auth/register', 'post'],
      ['/v1/auth/login', 'post'],
      ['/v1/auth/ws-ticket', 'post'],
      ['/v1/auth/password-reset/request', 'post'],
      ['/v1/auth/delete-request', 'post'],
      ['/v1/auth/resend-confirmation', 'post'],
      ['/v1/devices', 'post'],
      ['/v1/media/{media_id}/ticket', 'post'],
    ];
    for (const [path, method] of creating) {
      // Shared parameters are declared once under components and referenced.
      const params = (doc.paths[path]?.[method]?.parameters ?? []).map((p: any) =>
        p.$ref ? doc.components.parameters[p.$ref.split('/').pop()] : p,
      );
      const header = params.find((p: any) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
      expect(header, `${method.toUpperCase()} ${path}`).toBeDefined();
      expect(header.required ?? false).toBe(false);
    }
    const refresh = doc.paths['/v1/auth/refresh'].post.parameters ?? [];
    expect(refresh.some((p: any) => p.$ref === '#/components/parameters/IdempotencyKey')).toBe(false);
    // Both forms the server takes pass the documented pattern: a bare token and the quoted string.
    const pattern = new RegExp(doc.components.parameters.IdempotencyKey.schema.pattern);
    expect(pattern.test('7f0c2a4e-3b1d-4c9a')).toBe(true);
    expect(pattern.test('"a key with spaces"')).toBe(true);
    expect(pattern.test('short')).toBe(false);
  });
});
