import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createLogger,
  ensureIndices,
  importCatalogRecords,
  indexerStats,
  parseCatalogNdjson,
  startOutboxWorker,
  verifyIndex,
} from '@guest/indexer';
import { demoNdjsonLines } from '../../indexer/src/demo/load-demo.ts';
import { startTestRuntime, type TestRuntime } from '../support/test-app.ts';
import { spawnIndexerCli } from '../support/indexer-cli.ts';
import { eventually } from '../support/eventually.ts';

const waitFor = { timeoutMs: 60_000, intervalMs: 50 };

describe('outbox worker: crash in the middle of a batch, several workers at once', () => {
  let t: TestRuntime;
  let child: ChildProcess | undefined;
  const counts = async () => {
    const { rows } = await t.sql.query(
      `select count(*)::int as total, count(processed_at)::int as done, count(dead_at)::int as dead from catalog_outbox`,
    );
    return rows[0] as { total: number; done: number; dead: number };
  };

  beforeAll(async () => {
    // The child worker runs on the system clock, so this runtime does too (same horizon).
    t = await startTestRuntime({ config: { INDEXER_BATCH_SIZE: 40, INDEXER_POLL_MS: 500 } });
    await ensureIndices(t.runtime.search, t.config.INDEX_PREFIX, t.config.INDEX_REPLICAS);
    const parsed = parseCatalogNdjson(demoNdjsonLines({ listings: 800, events: 30, seed: 3, today: '2026-11-21' }));
    await importCatalogRecords(t.runtime.database, parsed.records);
  });
  afterAll(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await t?.close();
  });

  // Its own waits allow up to 60 s and 120 s (a loaded machine); the test's limit is above them.
  it(
    'rule: a worker killed (SIGKILL) while it holds a claimed batch loses nothing; after a restart verify shows zero drift',
    { timeout: 300_000 },
    async () => {
      const before = await counts();
      expect(before.done).toBe(0);
      child = spawnIndexerCli(t, ['worker'], { INDEXER_BATCH_SIZE: '40', INDEXER_POLL_MS: '500' }, [
        'ignore',
        'ignore',
        'pipe',
      ]);
      let stderr = '';
      child.stderr!.on('data', (d) => (stderr += d));
      // Mid-batch: some rows done, and the worker's claim transaction open (rows locked, bulk running).
      await eventually(
        'the worker to have applied a batch and hold the next one',
        async () => {
          const c = await counts();
          const { rows } = await t.sql.query(
            `select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`,
          );
          return { ...c, idleInTransaction: rows[0].n as number, stderr };
        },
        { ...waitFor, until: (s) => s.done > 0 && s.idleInTransaction > 0 },
      );
      child.kill('SIGKILL');
      await new Promise((r) => child!.once('exit', r));
      const atKill = await counts();
      expect(atKill.done, 'the kill must land before the outbox is drained').toBeLessThan(atKill.total);

      // Postgres rolls the dead worker's transaction back: its rows are due again, none is stuck.
      await eventually(
        'the dead worker’s claim to be released',
        async () => {
          const { rows } = await t.sql.query(
            `select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`,
          );
          return rows[0].n === 0;
        },
        waitFor,
      );

      // Restarted as two workers at once: they share the rest without double or lost work.
      const log = createLogger(t.runtime);
      const a = await startOutboxWorker(t.runtime, log);
      const b = await startOutboxWorker(t.runtime, log);
      await eventually('the outbox to be drained', counts, {
        ...waitFor,
        timeoutMs: 120_000,
        until: (c) => c.done === atKill.total,
      });
      await Promise.all([a.idle(), b.idle()]);
      await a.stop();
      await b.stop();
      expect(a.totals.applied + b.totals.applied, 'each remaining row applied exactly once').toBe(
        atKill.total - atKill.done,
      );
      expect(a.totals.applied > 0 && b.totals.applied > 0, 'both workers took part').toBe(true);
      expect(await indexerStats(t.runtime.database)).toMatchObject({ pending: 0, dead: 0, retrying: 0 });
      const report = await verifyIndex(t.runtime);
      expect(
        report.drift,
        JSON.stringify(report, (k, v) => (Array.isArray(v) ? v.slice(0, 5) : v)),
      ).toBe(0);
      expect(report.listings.expected).toBeGreaterThan(700);
    },
  );
});
