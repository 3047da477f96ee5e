import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '@guest/config';
import { aliasName, indexPattern } from '@guest/catalog';
import {
  applyDeps,
  createLogger,
  drainOnce,
  drainOptions,
  importCatalogText,
  indexerStats,
  startOutboxWorker,
  verifyIndex,
} from '@guest/indexer';
import { startTestRuntime, type TestRuntime } from '../support/test-app.ts';
import { eventually } from '../support/eventually.ts';

const waitFor = { timeoutMs: 30_000, intervalMs: 50 };

describe('change flow: outbox rows become pg-boss `catalog-changes` jobs', () => {
  let t: TestRuntime;
  let text: string;
  const price = (n: number) => text.replace('"amount_minor":450000', `"amount_minor":${n}`);
  const jobs = async () =>
    (
      await t.sql.query(
        `select state, singleton_key, start_after > now() as later from ${t.config.JOBS_SCHEMA}.job
          where name = 'catalog-changes' order by created_on`,
      )
    ).rows as Array<{ state: string; singleton_key: string; later: boolean }>;
  const allCompleted = (all: Array<{ state: string }>) => all.every((j) => j.state === 'completed');
  const priceOf = async (externalId: string) => {
    await t.runtime.search.refresh(indexPattern(t.config.INDEX_PREFIX));
    const res = await t.runtime.search.search<{ price_minor: number }>(aliasName(t.config.INDEX_PREFIX, 'listings'), {
      query: { term: { external_id: externalId } },
    });
    return res.hits[0]?._source.price_minor;
  };

  beforeAll(async () => {
    t = await startTestRuntime({ config: { INDEXER_POLL_MS: 500 } });
    text = await readFile(path.join(repoRoot, 'test/fixtures/catalog/small.ndjson'), 'utf8');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('rule: rows written before any worker existed are drained when the first worker starts', async () => {
    await importCatalogText(t.runtime.database, text);
    const worker = await startOutboxWorker(t.runtime, createLogger(t.runtime));
    try {
      await eventually('the start-up drain', () => indexerStats(t.runtime.database), {
        ...waitFor,
        until: (s) => s.pending === 0,
      });
      expect(await priceOf('L-1001')).toBe(450000);
    } finally {
      await worker.stop();
    }
  });

  it('rule: an import queues one job in its transaction; a burst of imports collapses into one waiting job', async () => {
    // No worker runs now: the queue exists (created by the worker above), nobody fetches.
    for (const n of [460000, 470000, 480000]) await importCatalogText(t.runtime.database, price(n));
    const waiting = (await jobs()).filter((j) => j.state === 'created');
    expect(waiting, JSON.stringify(await jobs())).toHaveLength(1);
    expect(waiting[0]).toMatchObject({ singleton_key: 'due', later: false });
    expect((await indexerStats(t.runtime.database)).pending).toBe(3);
  });

  it('rule: the worker applies changes through the job, without being asked (no idle() call)', async () => {
    const worker = await startOutboxWorker(t.runtime, createLogger(t.runtime));
    try {
      await eventually('the job to be worked (L-1001 at 480000)', () => priceOf('L-1001'), {
        ...waitFor,
        until: (p) => p === 480000,
      });
      await eventually('the burst job to be completed', jobs, { ...waitFor, until: allCompleted });
      const before = (await jobs()).length;
      await importCatalogText(t.runtime.database, price(500000));
      expect((await jobs()).length, 'the import queued a job of its own').toBe(before + 1);
      await eventually('a later import to be applied by its own job (L-1001 at 500000)', () => priceOf('L-1001'), {
        ...waitFor,
        until: (p) => p === 500000,
      });
      await eventually('its job to be completed', jobs, { ...waitFor, until: allCompleted });
      expect(await indexerStats(t.runtime.database)).toMatchObject({ pending: 0, retrying: 0, dead: 0 });
      expect((await verifyIndex(t.runtime)).drift).toBe(0);
    } finally {
      await worker.stop();
    }
  });

  it('rule: a batch that leaves rows to retry queues a job for when they are due', async () => {
    await t.sql.query(`delete from ${t.config.JOBS_SCHEMA}.job where name = 'catalog-changes'`);
    await importCatalogText(t.runtime.database, price(510000));
    const [concrete] = (await t.runtime.search.getAlias(aliasName(t.config.INDEX_PREFIX, 'listings'))) as [string];
    await t.runtime.search.closeIndex(concrete);
    try {
      const r = await drainOnce(t.runtime.database, applyDeps(t.runtime), {
        ...drainOptions(t.runtime),
        retryBaseMs: 60_000,
      });
      expect(r).toMatchObject({ claimed: 1, failed: 1 });
    } finally {
      await t.runtime.search.openIndex(concrete);
      await t.runtime.search.clusterHealth({ index: concrete, waitForStatus: 'yellow', timeout: '30s' });
    }
    const later = (await jobs()).filter((j) => j.state === 'created' && j.later);
    expect(later, JSON.stringify(await jobs())).toHaveLength(1);
    expect(later[0]!.singleton_key).toMatch(/^retry:\d+$/);
  });
});
