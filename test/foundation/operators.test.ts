import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDatabaseExists } from '@guest/db';
import { createJobs } from '@guest/jobs';
import { readApi } from '@guest/read-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { dropDatabase } from '../support/isolated-env.ts';
import { http } from '../support/http.ts';
import { closedPort } from '../security/support.ts';
import { probeApp } from './probe-app.ts';

// Issue 10 point 11, issue 14 point 5, DESIGN.md G4d: what an operator's probes and scraper see.

const apps: TestApp[] = [];
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
});

/** The value of one sample of the Prometheus text, or undefined when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (.+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const found = Object.fromEntries(
      [...(m[3] ?? '').matchAll(/([a-zA-Z_]+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]),
    );
    if (Object.entries(labels).every(([k, v]) => found[k] === v)) return Number(m[4]);
  }
  return undefined;
}

describe('GET /livez', () => {
  it('is 200 while the process answers, even with every dependency down', async () => {
    const dead = await closedPort();
    const t = await startTestApp({
      apps: [],
      config: { REDIS_URL: `redis://127.0.0.1:${dead}`, SEARCH_URL: `http://127.0.0.1:${dead}` },
      rewriteDatabaseUrl: (url) => {
        const u = new URL(url);
        u.port = String(dead);
        return u.toString();
      },
    });
    apps.push(t);
    const res = await http(t.url, 'GET', '/livez');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('GET /readyz', () => {
  it('is 200 ready when every dependency answers and the database is migrated', async () => {
    const t = await startTestApp({ apps: [] });
    apps.push(t);
    const res = await http(t.url, 'GET', '/readyz');
    expect(res.status, res.text).toBe(200);
    expect(res.body.status).toBe('ready');
    for (const name of ['database', 'migrations', 'cache', 'search', 'storage'])
      expect(res.body.checks[name].status, name).toBe('ok');
  });

  it('is 503 naming the migrations on a database that was never migrated', async () => {
    const name = `guest_unmigrated_${randomBytes(4).toString('hex')}`;
    let base = '';
    const t = await startTestApp({
      apps: [],
      rewriteDatabaseUrl: (url) => {
        base = url;
        const u = new URL(url);
        u.pathname = `/${name}`;
        return u.toString();
      },
    });
    apps.push(t);
    try {
      await ensureDatabaseExists(t.runtime.config.DATABASE_URL);
      const res = await http(t.url, 'GET', '/readyz');
      expect(res.status, res.text).toBe(503);
      expect(res.body.status).toBe('not_ready');
      expect(res.body.checks.database.status).toBe('ok');
      expect(res.body.checks.migrations.status).toBe('down');
      expect(res.body.checks.migrations.error).toMatch(/not migrated/);
      // /livez says nothing about it: the process itself is fine.
      expect((await http(t.url, 'GET', '/livez')).status).toBe(200);
    } finally {
      await t.runtime.database.close();
      await dropDatabase(base, name);
    }
  });

  it('is 503 naming each dependency that does not answer: Postgres, Redis, the search engine', async () => {
    const dead = await closedPort();
    const cases = [
      { down: 'cache', config: { REDIS_URL: `redis://127.0.0.1:${dead}` } },
      { down: 'search', config: { SEARCH_URL: `http://127.0.0.1:${dead}` } },
      { down: 'database', config: {}, db: true },
    ];
    for (const c of cases) {
      const t = await startTestApp({
        apps: [],
        config: c.config,
        ...(c.db
          ? {
              rewriteDatabaseUrl: (url: string) => {
                const u = new URL(url);
                u.port = String(dead);
                return u.toString();
              },
            }
          : {}),
      });
      apps.push(t);
      const res = await http(t.url, 'GET', '/readyz');
      expect(res.status, `${c.down}: ${res.text}`).toBe(503);
      expect(res.body.status).toBe('not_ready');
      expect(res.body.checks[c.down].status, c.down).toBe('down');
      // /health keeps its own body (DESIGN G4d) beside the new endpoints.
      const health = await http(t.url, 'GET', '/health');
      expect(Object.keys(health.body).sort()).toEqual(
        ['checks', 'environment', 'indexer', 'status', 'uptime_s', 'version'].sort(),
      );
    }
  });
});

describe('GET /metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ apps: [probeApp, readApi] });
    apps.push(t);
  });

  it('is Prometheus text counting requests by route pattern and status, never by raw URL', async () => {
    await http(t.url, 'GET', '/v1/_probe/named/alice?secret=xyz');
    await http(t.url, 'GET', '/v1/_probe/named/bob');
    await http(t.url, 'GET', '/v1/_probe/boom');
    await http(t.url, 'GET', '/v1/no-such-thing-here');
    const res = await http(t.url, 'GET', '/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = res.text;
    expect(sample(text, 'http_requests_total', { method: 'GET', route: '/v1/_probe/named/:name', status: '200' })).toBe(
      2,
    );
    expect(sample(text, 'http_requests_total', { route: '/v1/_probe/boom', status: '500' })).toBe(1);
    expect(sample(text, 'http_requests_total', { route: 'unmatched', status: '404' })).toBe(1);
    expect(
      sample(text, 'http_request_duration_seconds_count', { route: '/v1/_probe/named/:name', status: '200' }),
    ).toBe(2);
    expect(text).not.toMatch(/alice|bob|secret|xyz|no-such-thing/);
  });

  it('has engine call durations by operation', async () => {
    await http(t.url, 'GET', '/health');
    const text = (await http(t.url, 'GET', '/metrics')).text;
    expect(
      sample(text, 'search_engine_call_duration_seconds_count', { operation: 'ping', outcome: 'ok' }),
    ).toBeGreaterThan(0);
  });

  it('has indexer lag and failures and the job queue depth, read from the database like /health', async () => {
    // Two pending catalog changes, one of them dead, as the outbox holds them.
    await t.sql.query(
      `insert into catalog_outbox (entity, entity_id, version, created_at, attempts, dead_at)
       values ('listing', 1, 1, now() - interval '90 seconds', 2, null),
              ('listing', 2, 2, now(), 8, now())`,
    );
    const text = (await http(t.url, 'GET', '/metrics')).text;
    const health = (await http(t.url, 'GET', '/health')).body;
    expect(sample(text, 'guest_metrics_source_up')).toBe(1);
    expect(sample(text, 'indexer_pending_changes')).toBe(health.indexer.pending);
    expect(sample(text, 'indexer_retrying_changes')).toBe(health.indexer.retrying);
    expect(sample(text, 'indexer_dead_changes')).toBe(health.indexer.dead);
    expect(sample(text, 'indexer_dead_changes')).toBe(1);
    expect(sample(text, 'indexer_lag_seconds')).toBeGreaterThanOrEqual(90);
  });

  it('has the depth of each pg-boss queue', async () => {
    const jobs = createJobs({ connectionString: t.config.DATABASE_URL, schema: t.config.JOBS_SCHEMA, max: 1 });
    try {
      await jobs.start([{ name: 'ops-metrics-probe' }]);
      for (let i = 0; i < 3; i++) await jobs.send('ops-metrics-probe', { i });
    } finally {
      await jobs.stop();
    }
    const text = (await http(t.url, 'GET', '/metrics')).text;
    expect(sample(text, 'job_queue_depth', { queue: 'ops-metrics-probe' })).toBe(3);
  });
});
