import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '@guest/config';
import { aliasName, INDEX_KINDS, indexPattern } from '@guest/catalog';
import { createLogger, ensureIndices, importCatalogText, startOutboxWorker, type OutboxWorker } from '@guest/indexer';
import { startTestRuntime, type TestRuntime } from '../support/test-app.ts';

describe('a mapping change is rolled out by the worker (fresh indices, aliases swapped)', () => {
  let t: TestRuntime;
  let worker: OutboxWorker | undefined;

  beforeAll(async () => {
    t = await startTestRuntime();
    await ensureIndices(t.runtime.search, t.config.INDEX_PREFIX, t.config.INDEX_REPLICAS);
    const text = await readFile(path.join(repoRoot, 'test/fixtures/catalog/small.ndjson'), 'utf8');
    await importCatalogText(t.runtime.database, text);
  });
  afterAll(async () => {
    await worker?.stop();
    await t?.close();
  });

  it('rule: indices carry the fingerprint of their mappings; an index without it (older mappings) is rebuilt at worker start', async () => {
    const listings = aliasName(t.config.INDEX_PREFIX, 'listings');
    const [built] = await t.runtime.search.getAlias(listings);
    const meta = await t.runtime.search.getMappingMeta(listings);
    expect(meta[built!]?.layout, 'ensureIndices writes the fingerprint').toMatch(/^[0-9a-f]{16}$/);

    // An index as an older release built it: no fingerprint, under the listings alias.
    const old = `${t.config.INDEX_PREFIX}-listings-vold`;
    await t.runtime.search.createIndex(old, { mappings: { dynamic: false, properties: {} } });
    await t.runtime.search.updateAliases([
      { remove: { index: built, alias: listings } },
      { add: { index: old, alias: listings, is_write_index: true } },
    ]);
    await t.runtime.search.deleteIndex(built!);

    worker = await startOutboxWorker(t.runtime, createLogger(t.runtime));
    await worker.idle();
    await t.runtime.search.refresh(indexPattern(t.config.INDEX_PREFIX));

    const [rebuilt] = await t.runtime.search.getAlias(listings);
    expect(rebuilt).not.toBe(old);
    expect(await t.runtime.search.indexExists(old), 'the old index is deleted after the swap').toBe(false);
    for (const kind of INDEX_KINDS) {
      const alias = aliasName(t.config.INDEX_PREFIX, kind);
      const metas = Object.values(await t.runtime.search.getMappingMeta(alias));
      expect(metas.map((m) => m.layout).every((h) => typeof h === 'string')).toBe(true);
    }
    expect(await t.runtime.search.count(listings, { query: { match_all: {} } })).toBeGreaterThan(0);
  });
});
