import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '@guest/runtime';
import { aliasName, catalogRecord } from '@guest/catalog';
import { createLogger, parseCatalogNdjson, reindexAll, verifyIndex } from '@guest/indexer';
import { demoNdjsonLines, loadDemoCatalog } from '../../indexer/src/demo/load-demo.ts';
import { startTestRuntime, type TestRuntime } from '../support/test-app.ts';

const opts = { listings: 400, events: 40, seed: 7, today: '2026-11-21' };

describe('demo catalog', () => {
  it('rule: deterministic — the same seed and day give the same NDJSON, another seed another one', () => {
    const a = [...demoNdjsonLines(opts)];
    expect([...demoNdjsonLines(opts)]).toEqual(a);
    expect([...demoNdjsonLines({ ...opts, seed: 8 })]).not.toEqual(a);
  });

  it('rule: every line is valid catalog format; all five kinds, five currencies, an fx_rate, four place levels, missing translations, weekly and after-midnight events', () => {
    const lines = [...demoNdjsonLines(opts)];
    const parsed = parseCatalogNdjson(lines);
    expect(parsed.errors).toEqual([]);
    const records = parsed.records.map((r) => r.record);
    const listings = records.filter((r) => r.type === 'listing');
    expect(new Set(listings.map((l) => l.kind))).toEqual(
      new Set(['stay', 'experience', 'service', 'transport', 'food']),
    );
    expect(new Set(listings.map((l) => l.price.currency))).toEqual(new Set(['THB', 'USD', 'EUR', 'RUB', 'CNY']));
    expect(records.filter((r) => r.type === 'fx_rate')).toHaveLength(1);
    expect(new Set(records.filter((r) => r.type === 'place').map((p) => p.level))).toEqual(
      new Set(['country', 'region', 'district', 'area']),
    );
    const missing = listings.filter((l) => Object.keys(l.title).length < 4);
    expect(missing.length, 'some listings lack a translation').toBeGreaterThan(20);
    expect(missing.length, 'most listings are translated').toBeLessThan(listings.length);
    const events = records.filter((r) => r.type === 'event');
    expect(events.some((e) => e.schedule.some((s) => 'weekly' in s))).toBe(true);
    expect(
      events.some((e) => e.schedule.some((s) => ('weekly' in s ? s.weekly.end < s.weekly.start : s.end < s.start))),
    ).toBe(true);
    expect(catalogRecord.safeParse(JSON.parse(lines[0]!)).success).toBe(true);
  });

  describe('loaded into Postgres and OpenSearch', () => {
    let t: TestRuntime;
    beforeAll(async () => {
      t = await startTestRuntime({ clock: fixedClock('2026-11-21T03:00:00Z') });
      await loadDemoCatalog(t.runtime, {
        listings: opts.listings,
        events: opts.events,
        seed: opts.seed,
        progress: false,
      });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('rule: after loadDemoCatalog, verify shows zero drift and nothing is left in the outbox', async () => {
      const report = await verifyIndex(t.runtime);
      expect(report.drift).toBe(0);
      expect(report.listings.expected).toBeGreaterThan(350);
      expect(report.events.expected).toBeGreaterThan(100);
      const { rows } = await t.sql.query('select count(*)::int as n from catalog_outbox where processed_at is null');
      expect(rows[0].n).toBe(0);
    });

    it('rule: a region name typed in any language finds listings there (Пхукет, ภูเก็ต, 普吉, Phuket)', async () => {
      const listings = aliasName(t.config.INDEX_PREFIX, 'listings');
      const counts = [];
      for (const q of ['Пхукет', 'ภูเก็ต', '普吉', 'Phuket']) {
        counts.push(
          await t.runtime.search.count(listings, {
            query: { multi_match: { query: q, fields: ['place_names.*', 'text_all'], operator: 'and' } },
          }),
        );
      }
      const exact = await t.runtime.search.count(listings, {
        query: {
          term: { place_path_ids: (await t.sql.query(`select id from places where slug = 'phuket'`)).rows[0].id },
        },
      });
      expect(exact).toBeGreaterThan(50);
      for (const c of counts) expect(c).toBe(exact);
    });

    it('rule: loading the same demo again changes nothing and does not rebuild', async () => {
      const r = await loadDemoCatalog(t.runtime, {
        listings: opts.listings,
        events: opts.events,
        seed: opts.seed,
        progress: false,
      });
      expect(r.import.outboxRows).toBe(0);
      expect(r.reindex).toBeNull();
    });

    it('rule: searches running during a rebuild always see a complete index (old or new), never an error', async () => {
      const listings = aliasName(t.config.INDEX_PREFIX, 'listings');
      const full = await t.runtime.search.count(listings, { query: { match_all: {} } });
      const seen = new Set<number>();
      const errors: string[] = [];
      let running = true;
      const reader = (async () => {
        while (running) {
          try {
            seen.add(await t.runtime.search.count(listings, { query: { match_all: {} } }));
          } catch (err) {
            errors.push(String(err));
          }
        }
      })();
      await reindexAll(t.runtime, createLogger(t.runtime), { oldIndexGraceMs: 300 });
      running = false;
      await reader;
      expect(errors).toEqual([]);
      expect([...seen]).toEqual([full]);
    });

    it('rule: a rebuild sends whole `_bulk` requests across pages of listings and events, and loses no document', async () => {
      const chunk = 37; // pages of 37 listings and of 1 event (about 20 occurrences): remainders carry over
      const sizes: number[] = [];
      const search = new Proxy(t.runtime.search, {
        get(target, prop, receiver) {
          if (prop !== 'bulk') return Reflect.get(target, prop, receiver);
          return (ops: unknown[], o?: Parameters<typeof target.bulk>[1]) => {
            sizes.push(ops.length / 2); // an index action is two lines: meta and document
            return target.bulk(ops, o);
          };
        },
      });
      const rt = { ...t.runtime, search, config: { ...t.runtime.config, INDEXER_REINDEX_BULK_DOCS: chunk } };
      const result = await reindexAll(rt, createLogger(t.runtime), { oldIndexGraceMs: 0 });
      const written = result.documents.listings + result.documents.places + result.documents.events;
      expect(sizes.reduce((a, b) => a + b, 0)).toBe(written);
      expect(sizes.slice(0, -1).every((n) => n === chunk)).toBe(true);
      expect(sizes.at(-1)).toBeLessThanOrEqual(chunk);
      const report = await verifyIndex(t.runtime);
      expect(report.drift).toBe(0);
      expect(report.listings.expected).toBe(result.documents.listings);
      expect(report.events.expected).toBe(result.documents.events);
    });
  });
});
