import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '@guest/config';
import { fixedClock } from '@guest/runtime';
import { aliasName } from '@guest/catalog';
import type { Jobs } from '@guest/jobs';
import {
  applyDeps,
  createLogger,
  drainOnce,
  drainOptions,
  ensureIndices,
  importCatalogText,
  MAINTENANCE_JOBS,
  startMaintenance,
  type Maintenance,
} from '@guest/indexer';
import { startTestRuntime, type TestRuntime } from '../support/test-app.ts';
import { eventually, StopWaiting } from '../support/eventually.ts';

/** Sends one job to a maintenance queue, as the schedule does, and waits until a worker finished it. */
async function runScheduledJob(jobs: Jobs, name: string): Promise<void> {
  const id = await jobs.send(name, {});
  expect(id).toBeTruthy();
  await eventually(
    `job ${name} ${id} to be completed`,
    async () => {
      const job = await jobs.boss.getJobById(name, id!);
      if (job?.state === 'failed') throw new StopWaiting(`${name} failed: ${JSON.stringify(job.output)}`);
      return job?.state;
    },
    { timeoutMs: 20_000, intervalMs: 200, until: (state) => state === 'completed' },
  );
}

describe('maintenance jobs of the worker (pg-boss schedules shared by `indexer worker` and `npm run dev`)', () => {
  let t: TestRuntime;
  let m: Maintenance;
  const clock = fixedClock('2026-11-21T05:00:00Z');

  beforeAll(async () => {
    t = await startTestRuntime({ clock });
    await ensureIndices(t.runtime.search, t.config.INDEX_PREFIX, t.config.INDEX_REPLICAS);
    m = await startMaintenance(t.runtime, createLogger(t.runtime));
  });
  afterAll(async () => {
    await m?.stop();
    await t?.close();
  });

  it('rule: the horizon roll and the idempotency-key purge are both registered as schedules', async () => {
    const schedules = await m.jobs.boss.getSchedules();
    expect(schedules.map((s) => [s.name, s.cron]).sort()).toEqual(MAINTENANCE_JOBS.map((j) => [j.name, j.cron]).sort());
    expect(schedules.map((s) => s.name).sort()).toEqual(['catalog-horizon-roll', 'idempotency-purge']);
  });

  it('rule: the scheduled purge removes expired Idempotency-Key rows and keeps live ones', async () => {
    await t.sql.query(
      `insert into idempotency_keys (scope, key, method, path, request_hash, state, response_status, expires_at) values
         ('ip:1', 'expired-done-key', 'POST', '/v1/x', 'h', 'done', 201, now() - interval '1 hour'),
         ('ip:1', 'expired-flight-key', 'POST', '/v1/x', 'h', 'in_flight', null, now() - interval '1 second'),
         ('ip:1', 'live-done-key', 'POST', '/v1/x', 'h', 'done', 201, now() + interval '23 hours'),
         ('ip:2', 'live-flight-key', 'POST', '/v1/x', 'h', 'in_flight', null, now() + interval '1 hour')`,
    );
    await runScheduledJob(m.jobs, 'idempotency-purge');
    const { rows } = await t.sql.query('select key from idempotency_keys order by key');
    expect(rows.map((r) => r.key)).toEqual(['live-done-key', 'live-flight-key']);
  });

  it('rule: the scheduled horizon roll removes the days that left the window', async () => {
    const events = aliasName(t.config.INDEX_PREFIX, 'events');
    const text = await readFile(path.join(repoRoot, 'test/fixtures/catalog/small.ndjson'), 'utf8');
    await importCatalogText(t.runtime.database, text);
    await drainOnce(t.runtime.database, applyDeps(t.runtime), drainOptions(t.runtime));
    await t.runtime.search.refresh(events);
    const party = { query: { term: { slug: 'kata-night-party' } } }; // 2026-11-28 22:00–03:00 in Bangkok
    expect(await t.runtime.search.count(events, party)).toBe(1);

    clock.set('2026-11-29T05:00:00Z');
    await runScheduledJob(m.jobs, 'catalog-horizon-roll');
    await t.runtime.search.refresh(events);
    expect(await t.runtime.search.count(events, party)).toBe(0);
  });
});
