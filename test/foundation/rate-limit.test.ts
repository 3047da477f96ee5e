import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { expectEnvelope, http } from '../support/http.ts';
import { probeApp } from './probe-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ apps: [probeApp], config: { RATE_LIMIT_ADDRESS_PER_MIN: 5 } });
});
afterAll(async () => t?.close());

describe('rate limiting per address', () => {
  it('answers 429 rate_limited with Retry-After in seconds past the limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await http(t.url, 'GET', '/v1/_probe/lang')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    const over = await http(t.url, 'GET', '/v1/_probe/lang');
    const e = expectEnvelope(over, 429, 'rate_limited');
    const retry = Number(over.headers.get('retry-after'));
    expect(Number.isInteger(retry)).toBe(true);
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(60);
    expect(e.details.retry_after).toBe(retry);
  });

  it('never limits /health, which monitoring polls', async () => {
    const res = await http(t.url, 'GET', '/health');
    expect(res.status).toBe(200);
  });
});
