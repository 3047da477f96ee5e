import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { aliasName } from '@guest/catalog';
import { repoRoot } from '@guest/config';
import { importCatalogText } from '@guest/indexer';
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
    // Which engine answers (SEARCH_ENGINE) and its version, as the engine itself reports it.
    expect(res.body.checks.search.engine).toBe(t.config.SEARCH_ENGINE);
    expect(res.body.checks.search.version).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("judges search by this deployment's own indices: another index that is red leaves it 200, its own red index is 503", async () => {
    const t = await startTestApp({ apps: [] });
    apps.push(t);
    // An index whose shard can never be placed stays red (as one does for a moment while it is created).
    const red = (name: string) =>
      t.runtime.search.createIndex(
        name,
        {
          settings: {
            number_of_shards: 1,
            number_of_replicas: 0,
            'index.routing.allocation.require._name': 'no-such-node',
          },
        },
        { waitForActiveShards: 0 },
      );
    const foreign = `other-app-${t.config.INDEX_PREFIX}`;
    await red(foreign);
    try {
      const ok = await http(t.url, 'GET', '/health');
      expect(ok.status, ok.text).toBe(200);
      expect(ok.body.checks.search.status).toBe('ok');

      await red(`${aliasName(t.config.INDEX_PREFIX, 'listings')}-red`);
      const down = await http(t.url, 'GET', '/health');
      expect(down.status).toBe(503);
      expect(down.body.checks.search).toMatchObject({ status: 'down', error: expect.stringContaining('red') });
    } finally {
      await t.runtime.search.deleteIndex(foreign).catch(() => {});
    }
  });

  it('turns 503 degraded and names the search check when the search engine does not answer', async () => {
    const t = await startTestApp({ apps: [], config: { SEARCH_URL: `http://${DEAD}` } });
    apps.push(t);
    const res = await http(t.url, 'GET', '/health');
    expect(res.status).toBe(503);
    expect(res.body.status).toBe('degraded');
    expect(res.body.checks.search.status).toBe('down');
    expect(res.body.checks.search.error).toBeTruthy();
    expect(res.body.checks.search.engine, 'named from configuration even when down').toBe(t.config.SEARCH_ENGINE);
    expect(res.body.checks.database.status).toBe('ok');
  });

  it('names the cache check when Redis does not answer', async () => {
    const t = await startTestApp({ apps: [], config: { REDIS_URL: `redis://${DEAD}` } });
    apps.push(t);
    const res = await http(t.url, 'GET', '/health');
    expect(res.status).toBe(503);
    expect(res.body.checks.cache.status).toBe('down');
  });

  it('shows indexer lag and failures from the real outbox as information: pending after an import with no worker, dead after one is marked dead, still 200', async () => {
    const t = await startTestApp({ apps: [] });
    apps.push(t);
    const empty = await http(t.url, 'GET', '/health');
    expect(empty.body.indexer).toEqual({ pending: 0, lag_s: 0, retrying: 0, dead: 0 });

    // An import commits outbox rows; no worker runs in this process, so they all stay pending.
    const text = await readFile(path.join(repoRoot, 'test/fixtures/catalog/small.ndjson'), 'utf8');
    const { outboxRows } = await importCatalogText(t.runtime.database, text);
    expect(outboxRows).toBeGreaterThan(2);
    await t.sql.query(
      `update catalog_outbox set created_at = now() - interval '90 seconds' where id = (select min(id) from catalog_outbox)`,
    );
    const pending = await http(t.url, 'GET', '/health');
    expect(pending.status).toBe(200);
    expect(pending.body.status).toBe('ok');
    expect(pending.body.indexer).toMatchObject({ pending: outboxRows, retrying: 0, dead: 0 });
    expect(pending.body.indexer.lag_s, 'age of the oldest pending change').toBeGreaterThanOrEqual(90);

    // One change failed once (retrying), another exhausted its attempts (dead).
    await t.sql.query(
      `update catalog_outbox set attempts = 1, last_error = 'engine down' where id = (select min(id) from catalog_outbox)`,
    );
    await t.sql.query(
      `update catalog_outbox set attempts = 8, last_error = 'engine down', dead_at = now() where id = (select max(id) from catalog_outbox)`,
    );
    const failing = await http(t.url, 'GET', '/health');
    expect(failing.status, 'indexer trouble alone does not make /health 503').toBe(200);
    expect(failing.body.status).toBe('ok');
    expect(failing.body.indexer).toMatchObject({ pending: outboxRows - 1, retrying: 1, dead: 1 });
    expect(Object.values(failing.body.checks).every((c: any) => c.status === 'ok')).toBe(true);
  });

  it('reports indexer null, and keeps its four checks and 200, when the outbox cannot be read', async () => {
    const t = await startTestApp({ apps: [] });
    apps.push(t);
    await t.sql.query('alter table catalog_outbox rename to catalog_outbox_away');
    try {
      const res = await http(t.url, 'GET', '/health');
      expect(res.status).toBe(200);
      expect(res.body.indexer).toBeNull();
      expect(res.body.checks.database.status).toBe('ok');
    } finally {
      await t.sql.query('alter table catalog_outbox_away rename to catalog_outbox');
    }
  });

  it('documents the indexer object in the OpenAPI HealthResponse', async () => {
    const t = await startTestApp({ apps: [] });
    apps.push(t);
    const res = await http(t.url, 'GET', '/v1/openapi.json');
    const schema = res.body.components.schemas.HealthResponse;
    expect(schema.required).toContain('indexer');
    expect(JSON.stringify(schema.properties.indexer)).toMatch(/pending.*lag_s.*retrying.*dead/);
  });
});
