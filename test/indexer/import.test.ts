import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '@guest/config';
import { CatalogImportError, importCatalogText } from '@guest/indexer';
import { startTestRuntime, type TestRuntime } from '../support/test-app.ts';

const fixture = (name: string) => readFile(path.join(repoRoot, 'test/fixtures/catalog', name), 'utf8');

describe('catalog import (real Postgres)', () => {
  let t: TestRuntime;
  beforeAll(async () => {
    t = await startTestRuntime();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('rule: a file with bad lines is refused as a whole, every bad line named with its number and reason', async () => {
    const good = await fixture('small.ndjson');
    const lines = good.trimEnd().split('\n');
    lines.splice(2, 0, '{"type":"currency","code":"usd","name":{"en":"x"},"minor_units":2}');
    lines.splice(5, 0, '{not json');
    lines.push(
      '{"type":"listing","external_id":"L-X","kind":"stay","status":"published","title":{"en":"x"},"original_lang":"en","place":"P-NOWHERE","location":{"mode":"city_only"},"price":{"amount_minor":1,"currency":"THB","unit":"night"},"created_at":"2026-01-01T00:00:00Z","experience":{"duration_min":1,"group_size_max":1,"same_day":true}}',
    );
    const err = await importCatalogText(t.runtime.database, lines.join('\n')).catch((e) => e);
    expect(err).toBeInstanceOf(CatalogImportError);
    const errors = (err as CatalogImportError).errors;
    expect(errors.some((e) => e.startsWith('line 3: code:'))).toBe(true);
    expect(errors.some((e) => e.startsWith('line 6: not valid JSON'))).toBe(true);
    expect(errors.some((e) => /^line 21: .*stay/.test(e))).toBe(true);
    const { rows } = await t.sql.query(
      'select (select count(*) from currencies)::int as c, (select count(*) from catalog_outbox)::int as o',
    );
    expect(rows[0], 'nothing of a refused file may be written').toEqual({ c: 0, o: 0 });
  });

  it('rule: a reference to a missing record is refused with the line number, nothing written', async () => {
    const text = (await fixture('small.ndjson')).replace(
      '"place":"P-KATA","location":{"mode":"city_only"}',
      '"place":"P-MISSING","location":{"mode":"city_only"}',
    );
    const err = (await importCatalogText(t.runtime.database, text).catch((e) => e)) as CatalogImportError;
    expect(err.errors).toEqual(['line 15: place: "P-MISSING" is not in the file or the catalog']);
    const { rows } = await t.sql.query('select count(*)::int as n from places');
    expect(rows[0].n).toBe(0);
  });

  it('rule: records may refer to records later in the file; every write gets a version and an outbox row', async () => {
    const stats = await importCatalogText(t.runtime.database, await fixture('small.ndjson'));
    expect(stats.byType.listing).toEqual({ created: 3, updated: 0, unchanged: 0 });
    expect(stats.byType.place).toEqual({ created: 4, updated: 0, unchanged: 0 });
    const { rows } = await t.sql.query(
      `select l.external_id, l.version, p.slug, (select count(*)::int from catalog_outbox o where o.entity = 'listing' and o.entity_id = l.id) as outbox
         from listings l join places p on p.id = l.place_id order by l.external_id`,
    );
    expect(rows.map((r) => [r.external_id, r.slug, r.outbox])).toEqual([
      ['L-1001', 'kata', 1],
      ['L-1002', 'kata', 1],
      ['L-1003', 'kata', 1],
    ]);
    expect(new Set(rows.map((r) => r.version)).size, 'versions are distinct').toBe(3);
    const kids = await t.sql.query(
      `select (select count(*)::int from listing_stay) as stay, (select count(*)::int from listing_amenities) as amenities,
              (select count(*)::int from listing_blocked_ranges) as blocked, (select count(*)::int from event_schedules) as slots`,
    );
    expect(kids.rows[0]).toEqual({ stay: 1, amenities: 2, blocked: 1, slots: 3 });
  });

  it('rule: importing the same file again changes nothing (no version bump, no outbox rows)', async () => {
    const before = await t.sql.query(
      'select (select max(version) from listings) as v, (select count(*)::int from catalog_outbox) as o',
    );
    const stats = await importCatalogText(t.runtime.database, await fixture('small.ndjson'));
    expect(stats.outboxRows).toBe(0);
    expect(stats.byType.listing).toEqual({ created: 0, updated: 0, unchanged: 3 });
    const after = await t.sql.query(
      'select (select max(version) from listings) as v, (select count(*)::int from catalog_outbox) as o',
    );
    expect(after.rows[0]).toEqual(before.rows[0]);
  });

  it('rule: a changed record is updated in place with a larger version and one new outbox row', async () => {
    const text = (await fixture('small.ndjson')).replace('"amount_minor":450000', '"amount_minor":470000');
    const before = await t.sql.query(`select id, version from listings where external_id = 'L-1001'`);
    const stats = await importCatalogText(t.runtime.database, text);
    expect(stats.byType.listing).toEqual({ created: 0, updated: 1, unchanged: 2 });
    expect(stats.outboxRows).toBe(1);
    const after = await t.sql.query(`select id, version, price_minor from listings where external_id = 'L-1001'`);
    expect(after.rows[0].id).toBe(before.rows[0].id);
    expect(after.rows[0].version).toBeGreaterThan(before.rows[0].version);
    expect(after.rows[0].price_minor).toBe(470000);
  });

  it('rule: a slug already used by another place is refused as a whole, on the line that asks for it', async () => {
    const before = await t.sql.query('select count(*)::int as n from catalog_outbox');
    const other =
      '{"type":"place","external_id":"P-OTHER","parent":"P-PHUKET","level":"district","slug":"kata","name":{"en":"Another Kata"}}';
    const inCatalog = (await importCatalogText(t.runtime.database, other).catch((e) => e)) as CatalogImportError;
    expect(inCatalog).toBeInstanceOf(CatalogImportError);
    expect(inCatalog.errors).toEqual(['line 1: slug: "kata" is already used by the place "P-KATA" in the catalog']);
    const after = await t.sql.query('select count(*)::int as n from catalog_outbox');
    expect(after.rows[0].n).toBe(before.rows[0].n);
    const inFile = (await importCatalogText(
      t.runtime.database,
      `${(await fixture('small.ndjson')).trimEnd()}\n${other}`,
    ).catch((e) => e)) as CatalogImportError;
    expect(inFile.errors).toEqual(['line 19: slug: "kata" is already used by the place on line 8']);
  });
});
