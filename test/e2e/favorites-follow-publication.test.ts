import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { deleteCatalogRecord, importCatalogText, startOutboxWorker, type OutboxWorker } from '@guest/indexer';
import { readApi } from '@guest/read-api';
import { writeApi } from '@guest/write-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { expectEnvelope, http } from '../support/http.ts';
import { eventually } from '../support/eventually.ts';
import { register } from '../write-api/auth/support.ts';
import { FIXTURES, loadCatalog, search } from '../read-api/search/support.ts';

/**
 * A guest's saved listings follow publication as search and PUT do: a listing archived, sent back
 * to draft or deleted in the catalog leaves `GET /v1/me/favorites` (it has nothing to open or
 * book), and one published again comes back in its place. The catalog changes through the real
 * import and delete, the index through the real worker.
 */
let t: TestApp;
let worker: OutboxWorker;
let lines: Map<string, string>;
beforeAll(async () => {
  t = await startTestApp({ apps: [writeApi, readApi] });
  await loadCatalog(t, 'catalog.ndjson');
  const text = await readFile(path.join(FIXTURES, 'catalog.ndjson'), 'utf8');
  lines = new Map(
    text
      .split('\n')
      .filter((l) => l.includes('"type":"listing"'))
      .map((l) => [JSON.parse(l).external_id as string, l]),
  );
  worker = await startOutboxWorker(t.runtime, pino({ level: 'silent' }));
});
afterAll(async () => {
  await worker?.stop();
  await t?.close();
});

const idOf = async (externalId: string) =>
  (await t.sql.query<{ id: number }>('select id from listings where external_id = $1', [externalId])).rows[0]!.id;
const withStatus = (externalId: string, status: string) =>
  lines.get(externalId)!.replace('"status":"published"', `"status":"${status}"`);

describe('favorites follow publication', () => {
  it('rule: an archived, draft or deleted listing leaves GET /v1/me/favorites when it leaves search; published again, it is back in its place', async () => {
    const g = await register(t);
    const token = g.tokens.access_token;
    const saved = async () =>
      ((await http(t.url, 'GET', '/v1/me/favorites?limit=100', { token })).body.items as Array<any>).map(
        (i) => i.listing_id,
      );
    const inFeed = async (ids: number[]) => {
      const res = await search(t, 'listings', { lang: 'en', limit: 100 });
      const shown = new Set((res.body.items as Array<{ id: number }>).map((i) => i.id));
      return ids.filter((id) => shown.has(id));
    };
    const [s1, s2, s3, e1] = (await Promise.all(['S1', 'S2', 'S3', 'E1'].map(idOf))) as [
      number,
      number,
      number,
      number,
    ];
    for (const id of [s1, s2, s3, e1])
      expect((await http(t.url, 'PUT', `/v1/me/favorites/${id}`, { token })).status).toBe(200);
    const before = (await http(t.url, 'GET', '/v1/me/favorites?limit=100', { token })).body.items as Array<any>;
    expect(before.map((i) => i.listing_id)).toEqual([e1, s3, s2, s1]);

    await importCatalogText(t.runtime.database, `${withStatus('S1', 'archived')}\n${withStatus('S2', 'draft')}`);
    await deleteCatalogRecord(t.runtime.database, 'listing', 'S3');
    expect(await saved(), 'the favorites list drops them as soon as the catalog does').toEqual([e1]);
    await eventually('search to drop them too', () => inFeed([s1, s2, s3, e1]), {
      until: (ids) => ids.length === 1,
    });
    expect(await inFeed([s1, s2, s3, e1])).toEqual([e1]);
    for (const id of [s1, s2, s3]) {
      expectEnvelope(await http(t.url, 'PUT', `/v1/me/favorites/${id}`, { token }), 404, 'not_found');
    }
    expect(await saved(), 'a refused PUT adds nothing').toEqual([e1]);

    // Published again: back in its place (the time it was saved), in search and in favorites.
    await importCatalogText(t.runtime.database, lines.get('S1')!);
    expect(await saved()).toEqual([e1, s1]);
    const after = (await http(t.url, 'GET', '/v1/me/favorites?limit=100', { token })).body.items as Array<any>;
    expect(after.find((i) => i.listing_id === s1)).toEqual(before.find((i) => i.listing_id === s1));
    await eventually('search to show it again', () => inFeed([s1]), { until: (ids) => ids.length === 1 });

    // DELETE forgets a hidden one too: it does not come back when published again.
    expect((await http(t.url, 'DELETE', `/v1/me/favorites/${s2}`, { token })).status).toBe(204);
    await importCatalogText(t.runtime.database, lines.get('S2')!);
    expect(await saved()).toEqual([e1, s1]);
  });
});
