import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TestApp } from '../../support/test-app.ts';
import { expectEnvelope, http } from '../../support/http.ts';
import { startAuthApp } from './support.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startAuthApp(); // default strict limit: 10 per minute per address (G8a)
});
afterAll(async () => t?.close());

it('email-availability allows 10 checks per minute per address, then 429 rate_limited with Retry-After', async () => {
  for (let i = 0; i < 10; i++) {
    const res = await http(t.url, 'GET', `/v1/auth/email-availability?email=probe${i}@example.com`);
    expect(res.status).toBe(200);
  }
  const over = await http(t.url, 'GET', '/v1/auth/email-availability?email=probe-x@example.com');
  expectEnvelope(over, 429, 'rate_limited');
  const retry = Number(over.headers.get('retry-after'));
  expect(retry).toBeGreaterThan(0);
  expect(retry).toBeLessThanOrEqual(60);
});
