import { request as rawRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readApi } from '@guest/read-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { expectEnvelope, http } from '../support/http.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ apps: [readApi] });
});
afterAll(async () => t?.close());

async function addNode(id: string, region: string, state: string) {
  await t.sql.query(
    `insert into nodes (id, name, region, state, api_url, files_url, updated_at)
     values ($1, $2, $3, $4, $5, $6, '2026-11-20T10:00:00Z')`,
    [id, `Node ${id}`, region, state, `https://${id}.api.example.test/`, `https://${id}.files.example.test`],
  );
}

describe('GET /v1/nodes', () => {
  it('always carries origin, even with no nodes at all', async () => {
    const res = await http(t.url, 'GET', '/v1/nodes');
    expect(res.status).toBe(200);
    // No ORIGIN_API_URL or PUBLIC_BASE_URL in the test config: the address the server listens on.
    expect(res.body).toEqual({ origin: { api_url: t.url, files_url: t.url }, nodes: [] });
    expect(res.headers.get('cache-control')).toBe(`public, max-age=${t.config.REFERENCE_CACHE_MAX_AGE_S}`);
  });

  it('lists only active nodes, each with its own pair of addresses, by region then id', async () => {
    await addNode('sg-2', 'Singapore', 'active');
    await addNode('bkk-1', 'Bangkok', 'active');
    await addNode('sg-1', 'Singapore', 'draining');
    await addNode('hk-1', 'Hong Kong', 'offline');
    await addNode('sg-3', 'Singapore', 'active');
    const res = await http(t.url, 'GET', '/v1/nodes');
    expect(res.status).toBe(200);
    expect(res.body.nodes).toEqual([
      {
        id: 'bkk-1',
        name: 'Node bkk-1',
        region: 'Bangkok',
        api_url: 'https://bkk-1.api.example.test',
        files_url: 'https://bkk-1.files.example.test',
        updated_at: '2026-11-20T10:00:00.000Z',
      },
      expect.objectContaining({ id: 'sg-2', api_url: 'https://sg-2.api.example.test' }),
      expect.objectContaining({ id: 'sg-3', files_url: 'https://sg-3.files.example.test' }),
    ]);
    expect(res.body.origin.api_url).toBe(t.url);
  });

  it('stops listing a node as soon as it leaves the active state', async () => {
    await t.sql.query(`update nodes set state = 'draining', updated_at = now() where id = 'sg-3'`);
    const res = await http(t.url, 'GET', '/v1/nodes');
    expect(res.body.nodes.map((n: { id: string }) => n.id)).toEqual(['bkk-1', 'sg-2']);
  });

  it('refuses a node state outside active, draining, offline (database rule)', async () => {
    await expect(addNode('x-1', 'Nowhere', 'maintenance')).rejects.toThrow(/nodes_state_check/);
  });

  it('never builds the origin from the Host header: a forged one changes nothing', async () => {
    const u = new URL(t.url);
    for (const host of ['evil.example', 'evil.example/<x>']) {
      const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = rawRequest({ host: u.hostname, port: u.port, path: '/v1/nodes', headers: { host } }, (r) => {
          let body = '';
          r.on('data', (c) => (body += c));
          r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
      expect(res.status).toBe(200);
      expect(JSON.parse(res.body).origin).toEqual({ api_url: t.url, files_url: t.url });
    }
  });
});

describe('GET /v1/nodes with the origin configured', () => {
  it('takes the pair from ORIGIN_API_URL and ORIGIN_FILES_URL, whatever Host says', async () => {
    const app = await startTestApp({
      apps: [readApi],
      config: { ORIGIN_API_URL: 'https://api.example.test/', ORIGIN_FILES_URL: 'https://files.example.test' },
    });
    try {
      const res = await http(app.url, 'GET', '/v1/nodes');
      expect(res.body.origin).toEqual({ api_url: 'https://api.example.test', files_url: 'https://files.example.test' });
    } finally {
      await app.close();
    }
  });

  it('falls back to PUBLIC_BASE_URL for both addresses', async () => {
    const app = await startTestApp({ apps: [readApi], config: { PUBLIC_BASE_URL: 'https://guest.example.test' } });
    try {
      const res = await http(app.url, 'GET', '/v1/nodes');
      expect(res.body.origin).toEqual({
        api_url: 'https://guest.example.test',
        files_url: 'https://guest.example.test',
      });
    } finally {
      await app.close();
    }
  });

  it('refuses to start with an origin URL that is not http(s)', async () => {
    await expect(startTestApp({ apps: [readApi], config: { ORIGIN_API_URL: 'ftp://x.example' } })).rejects.toThrow(
      /ORIGIN_API_URL/,
    );
  });
});

describe('OpenAPI', () => {
  it('documents NodesResponse with OriginServer and NodeInfo', async () => {
    const doc = (await http(t.url, 'GET', '/v1/openapi.json')).body;
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining(['NodesResponse', 'OriginServer', 'NodeInfo']),
    );
    expectEnvelope(await http(t.url, 'POST', '/v1/nodes'), 405, 'method_not_allowed');
  });
});
