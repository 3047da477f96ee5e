import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestApp } from '../../support/test-app.ts';
import { http } from '../../support/http.ts';
import { PASSWORD, startAuthApp, uniqueEmail } from './support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startAuthApp();
});
afterAll(async () => t?.close());

// method, path, success status, error statuses, signed in, request body (403 on a signed-in route:
// at least `account_restricted`, test/security/restricted-documented.test.ts; 400 on every
// operation: the input screen; 413 and 415 on every method with a body; 409 with Idempotency-Key)
const ENDPOINTS: Array<[string, string, number, number[], boolean, boolean]> = [
  ['get', '/v1/auth/email-availability', 200, [400, 429, 500, 503], false, false],
  ['post', '/v1/auth/captcha', 200, [400, 401, 403, 413, 415, 422, 429, 500, 503], false, true],
  ['post', '/v1/auth/register', 201, [400, 403, 409, 413, 415, 422, 429, 500, 503], false, true],
  ['post', '/v1/auth/confirm-email', 200, [400, 413, 415, 422, 429, 500, 503], false, true],
  ['post', '/v1/auth/resend-confirmation', 200, [400, 401, 403, 409, 413, 415, 429, 500, 503], true, false],
  ['post', '/v1/auth/login', 200, [400, 401, 403, 409, 413, 415, 422, 429, 500, 503], false, true],
  ['post', '/v1/auth/refresh', 200, [400, 401, 403, 413, 415, 422, 429, 500, 503], false, true],
  ['post', '/v1/auth/ws-ticket', 200, [400, 401, 403, 409, 413, 415, 429, 500, 503], true, false],
  ['post', '/v1/auth/logout', 200, [400, 401, 413, 415, 429, 500, 503], true, false],
  ['post', '/v1/auth/logout-all', 200, [400, 401, 413, 415, 429, 500, 503], true, false],
  ['get', '/v1/auth/sessions', 200, [400, 401, 429, 500, 503], true, false],
  ['post', '/v1/auth/password-reset/request', 202, [400, 403, 409, 413, 415, 422, 429, 500, 503], false, true],
  ['post', '/v1/auth/password-reset/confirm', 200, [400, 413, 415, 422, 429, 500, 503], false, true],
  ['post', '/v1/auth/password/change', 200, [400, 401, 403, 413, 415, 422, 429, 500, 503], true, true],
  ['post', '/v1/auth/delete-request', 202, [400, 401, 403, 409, 413, 415, 422, 429, 500, 503], true, true],
  ['post', '/v1/auth/delete-confirm', 200, [400, 413, 415, 422, 429, 500, 503], false, true],
  ['get', '/v1/me/sessions', 200, [400, 401, 429, 500, 503], true, false],
  ['delete', '/v1/me/sessions/{session_id}', 200, [400, 401, 404, 413, 415, 429, 500, 503], true, false],
];

it('describes every auth and session endpoint with its request, responses and error codes', async () => {
  const doc = (await http(t.url, 'GET', '/v1/openapi.json')).body;
  for (const [method, path, ok, errs, signedIn, hasBody] of ENDPOINTS) {
    const op = doc.paths?.[path]?.[method];
    expect(op, `${method} ${path} missing`).toBeDefined();
    expect(Object.keys(op.responses).map(Number).sort(), `${method} ${path}`).toEqual([ok, ...errs].sort());
    for (const s of errs) {
      expect(JSON.stringify(op.responses[s]), `${method} ${path} ${s}`).toContain('ErrorEnvelope');
    }
    expect(op.description, `${method} ${path} names its error codes`).toMatch(/`[a-z_]+` \(\d{3}\)/);
    expect(Boolean(op.security?.some((s: any) => 'bearer' in s)), `${method} ${path} security`).toBe(signedIn);
    expect(Boolean(op.requestBody), `${method} ${path} body`).toBe(hasBody);
  }
  const schemas = doc.components?.schemas ?? {};
  for (const id of [
    'TokenPairResponse',
    'RegisterRequest',
    'LoginRequest',
    'SessionResponse',
    'WsTicketResponse',
    'CaptchaResponse',
  ]) {
    expect(schemas[id], id).toBeDefined();
  }
  expect(Object.keys(schemas.SessionResponse.properties).sort()).toEqual(
    ['created_at', 'current', 'expires_at', 'id', 'ip', 'last_used_at', 'user_agent'].sort(),
  );
  expect(schemas.TokenPairResponse.required).toEqual(
    expect.arrayContaining(['access_token', 'refresh_token', 'expires_in', 'session_id']),
  );
});

it('202 of password-reset request and delete-request is truly empty, and declared without content', async () => {
  const doc = (await http(t.url, 'GET', '/v1/openapi.json')).body;
  for (const path of ['/v1/auth/password-reset/request', '/v1/auth/delete-request']) {
    const accepted = doc.paths[path].post.responses['202'];
    expect(accepted, path).toBeDefined();
    expect(accepted.content, `${path} 202 declares no body`).toBeUndefined();
  }
  const email = uniqueEmail('empty');
  const reg = await http(t.url, 'POST', '/v1/auth/register', {
    body: { first_name: 'E', last_name: 'B', email, password: PASSWORD, accept_terms: true },
  });
  expect(reg.status).toBe(201);
  const answers = [
    await fetch(`${t.url}/v1/auth/password-reset/request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    }),
    await fetch(`${t.url}/v1/auth/delete-request`, {
      method: 'POST',
      headers: { authorization: `Bearer ${reg.body.access_token}` },
    }),
  ];
  for (const res of answers) {
    expect(res.status).toBe(202);
    expect(await res.text()).toBe(''); // not `null`, not `{}`
    expect(res.headers.get('content-length')).toBe('0');
    expect(res.headers.get('content-type')).toBeNull();
  }
});
