import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '@guest/config';
import { aliasName, indexPattern } from '@guest/catalog';
import { createLogger, ensureIndices, importCatalogText, startOutboxWorker, type OutboxWorker } from '@guest/indexer';
import { startTestRuntime, type TestRuntime } from '../support/test-app.ts';
import { runIndexerCli } from '../support/indexer-cli.ts';

describe('deleting catalog records (`indexer catalog delete <listing|event> <external_id>`)', () => {
  let t: TestRuntime;
  let worker: OutboxWorker;
  const run = (args: string[]) => runIndexerCli(t, args);
  const settle = async () => {
    await worker.idle();
    await t.runtime.search.refresh(indexPattern(t.config.INDEX_PREFIX));
  };
  const indexed = (kind: 'listings' | 'events', externalId: string) =>
    t.runtime.search.count(aliasName(t.config.INDEX_PREFIX, kind), { query: { term: { external_id: externalId } } });
  const count = async (sql: string, params: unknown[]) => (await t.sql.query(sql, params)).rows[0].n as number;

  beforeAll(async () => {
    t = await startTestRuntime();
    await ensureIndices(t.runtime.search, t.config.INDEX_PREFIX, t.config.INDEX_REPLICAS);
    // The CLI runs on the real clock: the weekly yoga must have occurrences whatever today is.
    const text = (await readFile(path.join(repoRoot, 'test/fixtures/catalog/small.ndjson'), 'utf8')).replace(
      '"from":"2026-11-01","until":"2027-06-30"',
      '"from":"2000-01-03","until":"2099-12-31"',
    );
    await importCatalogText(t.runtime.database, text);
    worker = await startOutboxWorker(t.runtime, createLogger(t.runtime));
    await settle();
  });
  afterAll(async () => {
    await worker?.stop();
    await t?.close();
  });

  it('rule: deleting a listing removes its row, child rows and its document (outbox → worker); verify shows zero drift', async () => {
    expect(await indexed('listings', 'L-1001'), 'searchable after the import').toBe(1);
    const { rows: before } = await t.sql.query(`select id from listings where external_id = 'L-1001'`);
    const id = before[0].id;
    expect(await count('select count(*)::int as n from listing_stay where listing_id = $1', [id])).toBe(1);

    const r = await run(['catalog', 'delete', 'listing', 'L-1001']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ deleted: 'listing', external_id: 'L-1001' });
    expect(await count('select count(*)::int as n from listings where id = $1', [id])).toBe(0);
    for (const table of ['listing_stay', 'listing_amenities', 'listing_categories', 'listing_blocked_ranges']) {
      expect(await count(`select count(*)::int as n from ${table} where listing_id = $1`, [id]), table).toBe(0);
    }
    expect(
      await count(`select count(*)::int as n from catalog_outbox where entity = 'listing' and entity_id = $1`, [id]),
      'an outbox row written with the delete',
    ).toBe(2);

    await settle();
    expect(await indexed('listings', 'L-1001'), 'gone from the index').toBe(0);
    expect(await indexed('listings', 'L-1002'), 'the other listing stays').toBe(1);
    const verify = await run(['verify']);
    expect(verify.code, verify.stdout).toBe(0);
    expect(verify.stdout).toMatch(/drift 0/);
  }, 120_000);

  it('rule: deleting an event removes its row, its schedule and every occurrence document; verify shows zero drift', async () => {
    expect(await indexed('events', 'E-77')).toBeGreaterThan(10);
    const { rows: before } = await t.sql.query(`select id from events where external_id = 'E-77'`);
    const r = await run(['catalog', 'delete', 'event', 'E-77']);
    expect(r.code, r.stderr).toBe(0);
    expect(await count('select count(*)::int as n from event_schedules where event_id = $1', [before[0].id])).toBe(0);

    await settle();
    expect(await indexed('events', 'E-77'), 'no occurrence left').toBe(0);
    const verify = await run(['verify']);
    expect(verify.code, verify.stdout).toBe(0);
    expect(verify.stdout).toMatch(/drift 0/);
  }, 120_000);

  it('rule: an unknown id is an input error (exit 65, says what is missing) and writes nothing', async () => {
    const { rows: before } = await t.sql.query('select count(*)::int as n from catalog_outbox');
    const r = await run(['catalog', 'delete', 'listing', 'L-NOPE']);
    expect(r.code).toBe(65);
    expect(r.stderr).toMatch(/listing "L-NOPE" is not in the catalog/);
    const { rows: after } = await t.sql.query('select count(*)::int as n from catalog_outbox');
    expect(after[0].n).toBe(before[0].n);

    const usage = await run(['catalog', 'delete', 'venue', 'V-1']);
    expect(usage.code).toBe(64);
    expect(usage.stderr).toMatch(/catalog delete <listing\|event> <external_id>/);
  }, 120_000);
});
