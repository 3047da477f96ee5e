import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/test-app.ts';
import { expectEnvelope, http } from '../support/http.ts';
import { register, startAuthApp } from '../write-api/auth/support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startAuthApp({ RATE_LIMIT_ACTOR_PER_MIN: 3 });
});
afterAll(async () => t?.close());

describe('rate limiting per actor', () => {
  it('counts a signed-in account across requests and answers 429 with Retry-After past its limit', async () => {
    const a = await register(t);
    const b = await register(t);
    for (let i = 0; i < 3; i++) {
      expect((await http(t.url, 'GET', '/v1/auth/sessions', { token: a.tokens.access_token })).status).toBe(200);
    }
    const over = await http(t.url, 'GET', '/v1/auth/sessions', { token: a.tokens.access_token });
    const e = expectEnvelope(over, 429, 'rate_limited');
    expect(e.details.scope).toBe('actor');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Another account from the same address has its own allowance.
    expect((await http(t.url, 'GET', '/v1/auth/sessions', { token: b.tokens.access_token })).status).toBe(200);
  });
});
