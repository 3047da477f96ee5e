import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeApi } from '@guest/write-api';
import { readApi } from '@guest/read-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { http } from '../support/http.ts';
import { relaxedLimits, signUp } from './support.ts';

// Issue 14 point 7 (last sentence): private answers carry `Cache-Control: no-store`, set in one
// place (libs/http-kit) for every signed-in request, so no browser or shared cache keeps them.

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await startTestApp({ apps: [writeApi, readApi], config: relaxedLimits });
  const me = await signUp(t);
  await t.sql.query('update accounts set email_confirmed_at = now() where id = $1', [me.accountId]);
  token = me.token;
});
afterAll(async () => t?.close());

function noStore(res: { headers: Headers }) {
  return /(^|[\s,])no-store($|[\s,])/.test(res.headers.get('cache-control') ?? '');
}

describe('Cache-Control: no-store on private answers', () => {
  it('every /v1/me* answer, sessions and transactions, success or error', async () => {
    for (const path of [
      '/v1/me',
      '/v1/me/sessions',
      '/v1/me/transactions',
      '/v1/me/transactions/pay_nope',
      '/v1/me/badges',
      '/v1/me/favorites',
      '/v1/me/search-filters',
      '/v1/me/email-prefs',
      '/v1/me/push-prefs',
      '/v1/auth/sessions',
    ]) {
      const res = await http(t.url, 'GET', path, { token });
      const expected = path.endsWith('pay_nope') ? 404 : 200;
      expect(res.status, `${path}: ${res.text.slice(0, 200)}`).toBe(expected);
      expect(noStore(res), `${path} Cache-Control: ${res.headers.get('cache-control')}`).toBe(true);
    }
  });

  it('a route where sign-in is optional: no-store when the caller is identified', async () => {
    // The feed answers even without an index yet (or with an error): what counts is its header.
    const signedIn = await http(t.url, 'GET', '/v1/search/listings', { token });
    expect(noStore(signedIn), `${signedIn.status} ${signedIn.headers.get('cache-control')}`).toBe(true);
  });

  it('public answers keep their own cache policy, also when a client sends its token along', async () => {
    const anonymous = await http(t.url, 'GET', '/v1/i18n/languages');
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers.get('cache-control')).toMatch(/max-age/);
    const withToken = await http(t.url, 'GET', '/v1/i18n/languages', { token });
    expect(withToken.headers.get('cache-control')).toMatch(/max-age/);
  });
});
