import { afterAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { http } from '../support/http.ts';

const apps: TestApp[] = [];
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
});

// A port on which nothing listens: what a client sees when a service is stopped.
const DEAD = '127.0.0.1:9';

describe('GET /health (DESIGN G4d)', () => {
  it('is 200 with all four checks ok when every service answers', async () => {
    const t = await startTestApp({ apps: [] });
    apps.push(t);
    const res = await http(t.url, 'GET', '/health');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 'ok',
      environment: 'test',
      checks: {
        database: { status: 'ok' },
        cache: { status: 'ok' },
        search: { status: 'ok' },
        storage: { status: 'ok' },
      },
    });
    expect(typeof res.body.uptime_s).toBe('number');
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('turns 503 degraded and names the search check when OpenSearch does not answer', async () => {
    const t = await startTestApp({ apps: [], config: { OPENSEARCH_URL: `http://${DEAD}` } });
    apps.push(t);
    const res = await http(t.url, 'GET', '/health');
    expect(res.status).toBe(503);
    expect(res.body.status).toBe('degraded');
    expect(res.body.checks.search.status).toBe('down');
    expect(res.body.checks.search.error).toBeTruthy();
    expect(res.body.checks.database.status).toBe('ok');
  });

  it('names the cache check when Redis does not answer', async () => {
    const t = await startTestApp({ apps: [], config: { REDIS_URL: `redis://${DEAD}` } });
    apps.push(t);
    const res = await http(t.url, 'GET', '/health');
    expect(res.status).toBe(503);
    expect(res.body.checks.cache.status).toBe('down');
  });
});
