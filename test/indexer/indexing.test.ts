import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '@guest/config';
import { fixedClock } from '@guest/runtime';
import { Redis } from 'ioredis';
import { aliasName, indexPattern, referenceChangedChannel } from '@guest/catalog';
import {
  applyDeps,
  createLogger,
  drainOnce,
  drainOptions,
  ensureIndices,
  importCatalogText,
  indexerStats,
  listDeadLetters,
  reindexAll,
  replayDeadLetters,
  verifyIndex,
} from '@guest/indexer';
import { runBulk } from '../../indexer/src/engine/bulk.ts';
import { startTestRuntime, type TestRuntime } from '../support/test-app.ts';

const fixture = (name: string) => readFile(path.join(repoRoot, 'test/fixtures/catalog', name), 'utf8');
const TEXT_FIELDS = ['title.*', 'description.*', 'place_names.*', 'venue.name.*', 'text_all'];

describe('projection into OpenSearch: import → searchable, update, unpublish, versions, rebuild, verify', () => {
  let t: TestRuntime;
  let listings: string;
  const clock = fixedClock('2026-11-21T05:00:00Z');
  const drain = async (opts: Partial<ReturnType<typeof drainOptions>> = {}) => {
    const r = await drainOnce(t.runtime.database, applyDeps(t.runtime), { ...drainOptions(t.runtime), ...opts });
    await t.runtime.search.refresh(indexPattern(t.config.INDEX_PREFIX));
    return r;
  };
  const search = async (q: string) => {
    const res = await t.runtime.search.search<{ external_id: string }>(listings, {
      query: { multi_match: { query: q, fields: TEXT_FIELDS } },
      size: 50,
    });
    return res.hits.map((h) => h._source.external_id).sort();
  };
  const docOf = async (externalId: string) => {
    const res = await t.runtime.search.search<any>(listings, { query: { term: { external_id: externalId } } });
    return res.hits[0]?._source;
  };
  const importText = (text: string) => importCatalogText(t.runtime.database, text);

  beforeAll(async () => {
    t = await startTestRuntime({ clock, config: { INDEXER_RETRY_BASE_MS: 0 } });
    listings = aliasName(t.config.INDEX_PREFIX, 'listings');
    await ensureIndices(t.runtime.search, t.config.INDEX_PREFIX, t.config.INDEX_REPLICAS);
    await importText(await fixture('small.ndjson'));
  });
  afterAll(async () => {
    await t?.close();
  });

  it('rule: after import and one drain, published listings are searchable by words in every language and by place names', async () => {
    const r = await drain();
    expect(r.claimed).toBeGreaterThan(0);
    expect(r.failed + r.dead).toBe(0);
    expect(await search('villa'), 'English stemming: villa').toEqual(['L-1001']);
    expect(await search('виллы'), 'Russian morphology: виллы → вилла').toEqual(['L-1001']);
    expect(await search('ดำน้ำ'), 'Thai word segmentation').toEqual(['L-1002']);
    expect(await search('Ката'), 'a district name in Russian finds the objects there').toEqual(['L-1001', 'L-1002']);
    expect(await search('卡塔'), 'a district name in Chinese').toEqual(['L-1001', 'L-1002']);
    expect(await search('ภูเก็ต'), 'the region (an ancestor) in Thai').toEqual(['L-1001', 'L-1002']);
    expect(await search('海鲜'), 'a draft listing is not in the index').toEqual([]);
  });

  it('rule: the listing document carries what the filters need (point, base price, blocked ranges, kind block)', async () => {
    const villa = await docOf('L-1001');
    expect(villa).toMatchObject({
      kind: 'stay',
      location: { lat: 7.8195, lon: 98.299 },
      has_point: true,
      price_minor: 450000,
      currency: 'THB',
      price_base_minor: 450000,
      blocked: [{ gte: '2026-12-20', lt: '2026-12-27' }],
      amenities: ['pool', 'wifi'],
      stay: { bedrooms: 3, max_guests: 6 },
      original_lang: 'ru',
    });
    expect(villa.place.slug).toBe('kata');
    const dive = await docOf('L-1002');
    expect(dive.location, 'city_only has no point').toBeNull();
    // 99.00 USD at 0.0281 USD per THB = 3523.13 THB.
    expect(dive.price_base_minor).toBe(352313);
    expect(dive.category_codes).toEqual(['diving']);
    expect(dive.duration_min).toBe(480);
    // Availability: no overlap of [2026-12-22, 2026-12-24) with a blocked range excludes the villa.
    const free = await t.runtime.search.search<any>(listings, {
      query: {
        bool: {
          must_not: { range: { blocked: { gte: '2026-12-22', lt: '2026-12-24', relation: 'intersects' } } },
          filter: { term: { kind: 'stay' } },
        },
      },
    });
    expect(free.total).toBe(0);
  });

  it('rule: suggest fields match prefixes of listing titles and place names in any language', async () => {
    const prefix = (index: string, q: string) =>
      t.runtime.search.search<{ external_id: string }>(index, {
        query: {
          multi_match: { query: q, type: 'bool_prefix', fields: ['suggest', 'suggest._2gram', 'suggest._3gram'] },
        },
      });
    expect((await prefix(listings, 'sea-vi')).hits.map((h) => h._source.external_id)).toEqual(['L-1001']);
    expect((await prefix(listings, 'Вилла с ви')).hits.map((h) => h._source.external_id)).toEqual(['L-1001']);
    const places = aliasName(t.config.INDEX_PREFIX, 'places');
    expect((await prefix(places, 'Пху')).hits.map((h) => h._source.external_id)).toEqual(['P-PHUKET']);
    expect((await prefix(places, 'ภูเ')).hits.map((h) => h._source.external_id)).toEqual(['P-PHUKET']);
  });

  it('rule: an applied change of reference data is announced on Redis for readers that cache lists', async () => {
    const sub = new Redis(t.config.REDIS_URL);
    try {
      const channel = referenceChangedChannel(t.config.REDIS_KEY_PREFIX);
      await sub.subscribe(channel);
      const message = new Promise<string>((resolve) => sub.once('message', (_c, m) => resolve(m)));
      await importText(
        (await fixture('small.ndjson')).replace(
          '"name":{"en":"Euro","ru":"Евро"}',
          '"name":{"en":"Euro","ru":"Евро","th":"ยูโร"}',
        ),
      );
      await drain();
      expect(JSON.parse(await message)).toEqual({ entities: ['currency'] });
    } finally {
      sub.disconnect();
    }
  });

  it('rule: update → the new version wins', async () => {
    const before = await docOf('L-1001');
    await importText((await fixture('small.ndjson')).replace('"amount_minor":450000', '"amount_minor":470000'));
    await drain();
    const after = await docOf('L-1001');
    expect(after.price_minor).toBe(470000);
    expect(after.version).toBeGreaterThan(before.version);
  });

  it('rule: out-of-order delivery cannot resurrect an old version (index or delete)', async () => {
    const current = await docOf('L-1001');
    const id = String(current.id);
    const old = { ...current, price_minor: 1, version: current.version - 1 };
    const late = await runBulk(t.runtime.search, [
      { action: 'index', index: listings, id, version: current.version - 1, doc: old },
      { action: 'delete', index: listings, id, version: current.version - 1 },
    ]);
    expect(late.stale, 'both late writes are refused as stale').toBe(2);
    await t.runtime.search.refresh(listings);
    expect((await docOf('L-1001')).price_minor).toBe(470000);
  });

  it('rule: unpublish → gone from the index', async () => {
    await importText(
      (await fixture('small.ndjson'))
        .replace('"amount_minor":450000', '"amount_minor":470000')
        .replace(
          '"external_id":"L-1002","kind":"experience","status":"published"',
          '"external_id":"L-1002","kind":"experience","status":"archived"',
        ),
    );
    await drain();
    expect(await search('Ката')).toEqual(['L-1001']);
    expect((await verifyIndex(t.runtime)).drift).toBe(0);
  });

  it('rule: a renamed district reaches every listing in it (place names are copied into documents)', async () => {
    const text = (await fixture('small.ndjson'))
      .replace('"amount_minor":450000', '"amount_minor":470000')
      .replace(
        '"external_id":"L-1002","kind":"experience","status":"published"',
        '"external_id":"L-1002","kind":"experience","status":"archived"',
      )
      .replace('"ru":"Ката"', '"ru":"Ката-Бич"');
    await importText(text);
    await drain();
    expect(await search('Ката-Бич')).toEqual(['L-1001']);
    expect((await verifyIndex(t.runtime)).drift).toBe(0);
  });

  it('rule: verify reports drift (and a non-zero count) when the index and Postgres disagree', async () => {
    const villa = await docOf('L-1001');
    await t.runtime.search.bulk([{ delete: { _index: listings, _id: String(villa.id) } }], { refresh: true });
    const report = await verifyIndex(t.runtime);
    expect(report.drift).toBe(1);
    expect(report.listings.missing).toEqual([String(villa.id)]);
  });

  it('rule: a rebuild fills fresh indices and swaps aliases atomically; searches during it never fail or see a partial index', async () => {
    const oldIndices = await t.runtime.search.getAlias(listings);
    const seen: number[] = [];
    const errors: unknown[] = [];
    let running = true;
    const reader = (async () => {
      while (running) {
        try {
          seen.push(await t.runtime.search.count(listings, { query: { match_all: {} } }));
        } catch (err) {
          errors.push(err);
        }
      }
    })();
    const result = await reindexAll(t.runtime, createLogger(t.runtime), { oldIndexGraceMs: 200 });
    running = false;
    await reader;
    expect(errors).toEqual([]);
    // Before the swap readers see the old index (0 or 1 listing: one was deleted above), after it the full new one.
    expect(seen.every((n) => n === 0 || n === 1)).toBe(true);
    expect(result.documents.listings).toBe(1);
    const now = await t.runtime.search.getAlias(listings);
    expect(now).toEqual([result.indices.listings]);
    for (const old of oldIndices) expect(await t.runtime.search.indexExists(old), `${old} removed`).toBe(false);
    expect((await verifyIndex(t.runtime)).drift).toBe(0);
  });

  it('rule: failures retry with backoff, end in the dead-letter queue, are visible in stats, and replay fixes them', async () => {
    const [concrete] = await t.runtime.search.getAlias(listings);
    await t.runtime.search.closeIndex(concrete!);
    try {
      await importText(
        (await fixture('small.ndjson'))
          .replace('"amount_minor":450000', '"amount_minor":480000')
          .replace(
            '"external_id":"L-1002","kind":"experience","status":"published"',
            '"external_id":"L-1002","kind":"experience","status":"archived"',
          )
          .replace('"ru":"Ката"', '"ru":"Ката-Бич"'),
      );
      const first = await drainOnce(t.runtime.database, applyDeps(t.runtime), {
        ...drainOptions(t.runtime),
        maxAttempts: 2,
      });
      expect(first).toMatchObject({ claimed: 1, applied: 0, failed: 1, dead: 0 });
      expect((await indexerStats(t.runtime.database)).retrying).toBe(1);
      const second = await drainOnce(t.runtime.database, applyDeps(t.runtime), {
        ...drainOptions(t.runtime),
        maxAttempts: 2,
      });
      expect(second).toMatchObject({ claimed: 1, dead: 1 });
      const stats = await indexerStats(t.runtime.database);
      expect(stats).toMatchObject({ pending: 0, dead: 1 });
      const dead = await listDeadLetters(t.runtime.database);
      expect(dead).toHaveLength(1);
      expect(dead[0]!.entity).toBe('listing');
      expect(dead[0]!.last_error).toMatch(/closed/i);
    } finally {
      await t.runtime.search.openIndex(concrete!);
      await t.runtime.search.clusterHealth({ index: concrete!, waitForStatus: 'yellow', timeout: '30s' });
    }
    expect(await replayDeadLetters(t.runtime.database)).toBe(1);
    const r = await drain();
    expect(r.applied).toBe(1);
    expect((await docOf('L-1001')).price_minor).toBe(480000);
    expect(await indexerStats(t.runtime.database)).toMatchObject({ pending: 0, dead: 0 });
    expect((await verifyIndex(t.runtime)).drift).toBe(0);
  });
});
