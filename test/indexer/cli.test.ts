import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aliasName } from '@guest/catalog';
import { startTestRuntime, type TestRuntime } from '../support/test-app.ts';
import { runIndexerCli } from '../support/indexer-cli.ts';

describe('indexer CLI (as an operator runs it)', () => {
  let t: TestRuntime;
  let dir: string;
  const run = (args: string[]) => runIndexerCli(t, args, { INDEXER_OLD_INDEX_GRACE_MS: '0' });

  beforeAll(async () => {
    t = await startTestRuntime();
    dir = await mkdtemp(path.join(os.tmpdir(), 'catalog-cli-'));
  });
  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('rule: `catalog import` of a bad file exits non-zero and names each bad line; nothing is written', async () => {
    const file = path.join(dir, 'bad.ndjson');
    await writeFile(file, '{"type":"currency","code":"THB","name":{"en":"Baht"},"minor_units":2}\n{"type":"nope"}\n');
    const r = await run(['catalog', 'import', file]);
    expect(r.code).toBe(65);
    expect(r.stderr).toMatch(/line 2: type: /);
    const { rows } = await t.sql.query('select count(*)::int as n from currencies');
    expect(rows[0].n).toBe(0);
  }, 60_000);

  it('rule: `demo generate` | `catalog import`, then `reindex` and `verify` exit 0; a removed document makes `verify` exit 1 with the drift printed', async () => {
    const file = path.join(dir, 'demo.ndjson');
    const gen = await run(['demo', 'generate', '--listings', '60', '--events', '5', '--out', file]);
    expect(gen.code, gen.stderr).toBe(0);
    const imp = await run(['catalog', 'import', file]);
    expect(imp.code, imp.stderr).toBe(0);
    expect(JSON.parse(imp.stdout).byType.listing.created).toBe(60);
    const re = await run(['reindex']);
    expect(re.code, re.stderr).toBe(0);
    expect(re.stderr, 'a progress bar on stderr').toMatch(/reindex \[#+\] 100%/);
    const ok = await run(['verify']);
    expect(ok.code, ok.stdout).toBe(0);
    expect(ok.stdout).toMatch(/drift 0/);

    const listings = aliasName(t.config.INDEX_PREFIX, 'listings');
    const one = await t.runtime.search.search<{ id: number }>(listings, { size: 1, query: { match_all: {} } });
    await t.runtime.search.bulk([{ delete: { _index: listings, _id: one.hits[0]!._id } }], { refresh: true });
    const drift = await run(['verify']);
    expect(drift.code).toBe(1);
    expect(drift.stdout).toMatch(/drift 1/);
    expect(drift.stdout).toContain(`missing ${one.hits[0]!._id}`);
  }, 240_000); // six process starts, each loading TypeScript through tsx
});
