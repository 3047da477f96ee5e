import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { aliasName, todayIn, type ListingRecord } from '@guest/catalog';
import { createRuntime, type Runtime } from '@guest/runtime';
import {
  applyDeps,
  drainOnce,
  drainOptions,
  importCatalogText,
  loadDemoCatalog,
  loadDemoIntoEmptyCatalog,
  verifyIndex,
} from '@guest/indexer';
import { demoNdjsonLines } from '../../indexer/src/demo/load-demo.ts';
import { startTestRuntime, type TestRuntime } from '../support/test-app.ts';

/**
 * What `npm run dev` does with the catalog at each start (`loadDemoIntoEmptyCatalog`): the demo
 * goes only into an empty catalog; a catalog that was changed stays as it was across restarts,
 * in Postgres and in the index. `--load-demo` (`loadDemoCatalog`) is the explicit way back.
 */
const demo = { listings: 80, events: 6, seed: 11 };
const silent = pino({ level: 'silent' });

describe('npm run dev: the demo catalog only into an empty catalog', () => {
  let t: TestRuntime;
  let other: Runtime | undefined;
  beforeAll(async () => {
    t = await startTestRuntime();
  });
  afterAll(async () => {
    await other?.close();
    await t?.close();
  });

  const titles = async (ids: string[]) =>
    (
      await t.sql.query<{ external_id: string; title: string; status: string }>(
        `select external_id, title->>'en' as title, status from listings where external_id = any($1) order by external_id`,
        [ids],
      )
    ).rows;
  const indexedTitle = async (rt: Runtime, externalId: string) => {
    await rt.search.refresh(aliasName(rt.config.INDEX_PREFIX, 'listings'));
    const res = await rt.search.search<{ title: { en?: string } }>(aliasName(rt.config.INDEX_PREFIX, 'listings'), {
      query: { term: { external_id: externalId } },
    });
    return res.hits[0]?._source.title.en ?? null;
  };
  const outboxRows = async () =>
    (await t.sql.query('select count(*)::int as n from catalog_outbox')).rows[0].n as number;

  it('rule: a first start loads the demo; a restart after retitles and an unpublish keeps them, in Postgres and in search', async () => {
    const first = await loadDemoIntoEmptyCatalog(t.runtime, { ...demo, progress: false, log: silent });
    expect('loaded' in first && first.loaded.import.byType.listing!.created).toBe(demo.listings);

    // The catalog changes as a developer changes it: imports of retitled and archived records.
    const records = [...demoNdjsonLines({ ...demo, today: todayIn('Asia/Bangkok', t.runtime.clock.now()) })]
      .map((l) => JSON.parse(l) as ListingRecord)
      .filter((r) => r.type === 'listing' && r.status === 'published')
      .slice(0, 4);
    const ids = records.map((r) => r.external_id);
    const changed = records.map((r, i) =>
      i === 3 ? { ...r, status: 'archived' } : { ...r, title: { en: `Retitled ${r.external_id}` } },
    );
    await importCatalogText(t.runtime.database, changed.map((r) => JSON.stringify(r)).join('\n'));
    await drainOnce(t.runtime.database, applyDeps(t.runtime), drainOptions(t.runtime));
    const afterChange = await titles(ids);
    const rows = await outboxRows();

    // The restart: nothing imported, nothing queued, the changes stay where they were.
    const again = await loadDemoIntoEmptyCatalog(t.runtime, { ...demo, progress: false, log: silent });
    expect(again).toEqual({
      kept: { listings: demo.listings, events: demo.events, places: expect.any(Number) },
      reindex: null,
    });
    expect(await outboxRows()).toBe(rows);
    expect(await titles(ids)).toEqual(afterChange);
    expect(afterChange.slice(0, 3).map((r) => r.title)).toEqual(ids.slice(0, 3).map((id) => `Retitled ${id}`));
    expect(afterChange[3]!.status).toBe('archived');
    expect(await indexedTitle(t.runtime, ids[0]!)).toBe(`Retitled ${ids[0]}`);
    expect(await indexedTitle(t.runtime, ids[3]!)).toBeNull();
    expect((await verifyIndex(t.runtime)).drift).toBe(0);
  });

  it('rule: a kept catalog whose indices hold nothing (a fresh index prefix) is indexed from what it holds, not from the demo', async () => {
    other = createRuntime({ ...t.config, INDEX_PREFIX: `${t.config.INDEX_PREFIX}-fresh` });
    const r = await loadDemoIntoEmptyCatalog(other, { ...demo, progress: false, log: silent });
    expect('kept' in r && r.reindex?.documents.listings).toBeGreaterThan(0);
    const [first] = (await t.sql.query(`select external_id from listings where title->>'en' like 'Retitled %' limit 1`))
      .rows as Array<{ external_id: string }>;
    expect(await indexedTitle(other, first!.external_id)).toBe(`Retitled ${first!.external_id}`);
    expect((await verifyIndex(other)).drift).toBe(0);
  });

  it('rule: asked for explicitly (`npm run dev -- --load-demo`), the demo is imported over the catalog', async () => {
    const [retitled] = (
      await t.sql.query(`select external_id from listings where title->>'en' like 'Retitled %' limit 1`)
    ).rows as Array<{ external_id: string }>;
    const r = await loadDemoCatalog(t.runtime, { ...demo, progress: false, log: silent });
    expect(r.import.byType.listing!.updated).toBe(4);
    expect((await titles([retitled!.external_id]))[0]!.title).not.toMatch(/^Retitled/);
  });
});
