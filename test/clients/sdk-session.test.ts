import { afterAll, beforeAll, expect, it } from 'vitest';
import { createGuestClient, memoryTokenStore, type TokenPair } from '@guest/client';
import { writeApi } from '@guest/write-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { register, relaxedLimits } from '../write-api/auth/support.ts';

/**
 * The SDK's token store (what the web client signs in with): a 401 on a signed-in request
 * refreshes the pair once and retries the request; parallel 401s share one refresh (a refresh
 * token is single-use); a refused refresh signs the store out and the caller sees the 401.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ apps: [writeApi], config: relaxedLimits });
});
afterAll(async () => t?.close());

/** The same pair with an access token the API refuses (as when it has expired). */
const staleAccess = (pair: TokenPair): TokenPair => ({
  ...pair,
  access_token: `${pair.access_token.slice(0, -4)}AAAA`,
});

it('refreshes on 401 and retries, with one refresh for requests that fail together', async () => {
  const guest = await register(t);
  const tokens = memoryTokenStore(staleAccess(guest.tokens));
  const refreshes: string[] = [];
  const api = createGuestClient({
    baseUrl: t.url,
    tokens,
    fetch: (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.endsWith('/v1/auth/refresh')) refreshes.push(url);
      return fetch(input, init);
    },
  });
  const [a, b] = await Promise.all([api.GET('/v1/me'), api.GET('/v1/me/badges')]);
  expect(a.response.status, JSON.stringify(a.error)).toBe(200);
  expect(a.data?.email).toBe(guest.email.toLowerCase());
  expect(b.response.status).toBe(200);
  expect(refreshes).toHaveLength(1);
  expect(tokens.get()?.access_token).not.toBe(staleAccess(guest.tokens).access_token);
  expect(tokens.get()?.session_id).toBe(guest.tokens.session_id);
});

it('signs the store out when the refresh token is refused, and answers the 401', async () => {
  const guest = await register(t);
  const tokens = memoryTokenStore({ ...staleAccess(guest.tokens), refresh_token: 'not-a-refresh-token' });
  const api = createGuestClient({ baseUrl: t.url, tokens });
  const res = await api.GET('/v1/me');
  expect(res.response.status).toBe(401);
  expect(tokens.get()).toBeNull();
});
