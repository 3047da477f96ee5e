import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readApi } from '@guest/read-api';
import { writeApi } from '@guest/write-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { http } from '../support/http.ts';
import { register, relaxedLimits } from '../write-api/auth/support.ts';
import { allPages, loadCatalog, titleCode } from '../read-api/search/support.ts';

/**
 * A favorite saved on the write API shows in the read API's feed as `is_favorite` for that guest
 * (and only for them), and goes away when removed: both apps behind one base URL, as clients use them.
 */
let t: TestApp;
beforeAll(async () => {
  // Three guests register from one address: no captcha for that.
  t = await startTestApp({ apps: [writeApi, readApi], config: relaxedLimits });
  await loadCatalog(t, 'catalog.ndjson');
});
afterAll(async () => t?.close());

describe('is_favorite follows PUT and DELETE /v1/me/favorites', () => {
  it('marks exactly the saved listing for its guest, not for another guest', async () => {
    const ann = await register(t);
    const bob = await register(t);
    const feed = (token: string) => allPages(t, { lang: 'en', limit: 100 }, { token });
    const before = await feed(ann.tokens.access_token);
    expect(before.every((i) => i.is_favorite === false)).toBe(true);
    const s1 = before.find((i) => titleCode(i.title) === 'S1')!;

    const put = await http(t.url, 'PUT', `/v1/me/favorites/${s1.id}`, { token: ann.tokens.access_token });
    expect(put.status).toBe(200);
    const favs = (await feed(ann.tokens.access_token)).filter((i) => i.is_favorite).map((i) => i.id);
    expect(favs).toEqual([s1.id]);
    expect((await feed(bob.tokens.access_token)).some((i) => i.is_favorite)).toBe(false);

    const del = await http(t.url, 'DELETE', `/v1/me/favorites/${s1.id}`, { token: ann.tokens.access_token });
    expect(del.status).toBeLessThan(300);
    expect((await feed(ann.tokens.access_token)).some((i) => i.is_favorite)).toBe(false);
  });

  it('the access token of login is the one token search takes (DESIGN G5b); a token of another API is 401', async () => {
    const ann = await register(t);
    const signedIn = await http(t.url, 'POST', '/v1/auth/login', {
      body: { email: ann.email, password: ann.password },
    });
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).not.toHaveProperty('read_access_token');
    const res = await http(t.url, 'GET', '/v1/search/listings?limit=1', { token: signedIn.body.access_token });
    expect(res.status).toBe(200);
    expect(res.body.items[0]).toHaveProperty('is_favorite', false);
    const [h, p] = signedIn.body.access_token.split('.');
    const foreign = `${h}.${p}.${createHmac('sha256', 'host-api-secret-0123456789-0123456789-abc').update(`${h}.${p}`).digest('base64url')}`;
    expect((await http(t.url, 'GET', '/v1/search/listings?limit=1', { token: foreign })).status).toBe(401);
  });

  it('the web session cookie signs the feed in too, behind the CSRF check; without it the feed is anonymous', async () => {
    const ann = await register(t);
    const login = await http(t.url, 'POST', '/v1/auth/login', {
      body: { email: ann.email, password: ann.password },
      headers: { 'x-session': 'cookie' },
    });
    expect(login.status).toBe(204);
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const web = { 'x-session': 'cookie', cookie };
    const first = (await http(t.url, 'GET', '/v1/search/listings?limit=1&lang=en', { headers: web })).body.items[0];
    expect(first.is_favorite).toBe(false);
    expect((await http(t.url, 'PUT', `/v1/me/favorites/${first.id}`, { headers: web })).status).toBe(200);
    const signedIn = await http(t.url, 'GET', '/v1/search/listings?limit=1&lang=en', { headers: web });
    expect(signedIn.body.items[0]).toMatchObject({ id: first.id, is_favorite: true });
    // A cookie that fails the check is not used (an image element sends the cookie, never the
    // header): the same feed, anonymous.
    for (const headers of [{ cookie }, { ...web, origin: 'https://evil.example.net' }]) {
      const anonymous = await http(t.url, 'GET', '/v1/search/listings?limit=1&lang=en', { headers });
      expect(anonymous.status).toBe(200);
      expect(anonymous.body.items[0].id).toBe(first.id);
      expect(anonymous.body.items[0].is_favorite).not.toBe(true);
    }
  });
});
