import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { repoRoot } from '@guest/config';
import { aliasName } from '@guest/catalog';
import { ensureIndices, importCatalogText } from '@guest/indexer';
import { superviseIndexerWorker, type WorkerSupervisor } from '../../scripts/dev-worker.ts';
import { startTestRuntime, type TestRuntime } from '../support/test-app.ts';
import { spawnIndexerCli } from '../support/indexer-cli.ts';
import { eventually } from '../support/eventually.ts';

/**
 * `npm run dev` runs the indexer worker as a process of its own (scripts/dev-worker.ts): killed
 * (here `kill -9`, as a crash or the out-of-memory killer would), it is logged and started again,
 * and catalog changes made meanwhile reach the index; stopped by dev, it stays stopped.
 */
const waitFor = { timeoutMs: 60_000, intervalMs: 100 };

describe('npm run dev: the indexer worker is restarted when it dies', () => {
  let t: TestRuntime;
  let supervisor: WorkerSupervisor | undefined;
  const logged: Array<{ msg: string; signal?: string; pid?: number }> = [];
  let text: string;

  beforeAll(async () => {
    t = await startTestRuntime({ config: { INDEXER_POLL_MS: 500 } });
    await ensureIndices(t.runtime.search, t.config.INDEX_PREFIX, t.config.INDEX_REPLICAS);
    text = await readFile(path.join(repoRoot, 'test/fixtures/catalog/small.ndjson'), 'utf8');
  });
  afterAll(async () => {
    await supervisor?.stop();
    await t?.close();
  });

  const price = async () => {
    await t.runtime.search.refresh(aliasName(t.config.INDEX_PREFIX, 'listings'));
    const res = await t.runtime.search.search<{ price_minor: number }>(aliasName(t.config.INDEX_PREFIX, 'listings'), {
      query: { term: { external_id: 'L-1001' } },
    });
    return res.hits[0]?._source.price_minor ?? null;
  };
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  it('rule: a worker killed with SIGKILL is logged and started again, and applies the changes made while it was down', async () => {
    supervisor = superviseIndexerWorker({
      env: {
        ...process.env,
        APP_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATABASE_URL: t.config.DATABASE_URL,
        INDEX_PREFIX: t.config.INDEX_PREFIX,
        REDIS_KEY_PREFIX: t.config.REDIS_KEY_PREFIX,
        INDEXER_POLL_MS: '500',
      },
      log: pino({ level: 'info' }, { write: (line: string) => void logged.push(JSON.parse(line)) }),
      firstDelayMs: 200,
      output: ['ignore', 'ignore'],
    });
    await importCatalogText(t.runtime.database, text);
    await eventually('the first worker to index the catalog', price, { ...waitFor, until: (p) => p === 450000 });

    const first = supervisor.pid!;
    process.kill(first, 'SIGKILL');
    await eventually('a new worker process', () => supervisor!.pid, {
      ...waitFor,
      until: (pid) => pid !== undefined && pid !== first,
    });
    expect(logged).toContainEqual(
      expect.objectContaining({
        pid: first,
        signal: 'SIGKILL',
        msg: 'indexer worker exited (killed by SIGKILL); starting it again in 0.2 s',
      }),
    );
    expect(supervisor.restarts).toBe(1);

    await importCatalogText(t.runtime.database, text.replace('"amount_minor":450000', '"amount_minor":470000'));
    await eventually('the restarted worker to apply a change', price, { ...waitFor, until: (p) => p === 470000 });
  }, 120_000);

  it('rule: stopped by dev, the worker exits and is not started again', async () => {
    const pid = supervisor!.pid!;
    await supervisor!.stop();
    expect(alive(pid)).toBe(false);
    expect(supervisor!.pid).toBeUndefined();
    expect(supervisor!.restarts).toBe(1);
    expect(logged.at(-1)).toMatchObject({ msg: 'indexer worker stopped', pid });
  }, 60_000);

  it('rule: a worker whose dev process is gone (its IPC channel closed) stops by itself', async () => {
    const child = spawnIndexerCli(t, ['worker'], { INDEXER_POLL_MS: '500' }, ['ignore', 'ignore', 'ignore', 'ipc']);
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await importCatalogText(t.runtime.database, text.replace('"amount_minor":450000', '"amount_minor":490000'));
      await eventually('the worker to run', price, { ...waitFor, until: (p) => p === 490000 });
      child.disconnect();
      expect(await exited, 'a clean stop').toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 120_000);
});
