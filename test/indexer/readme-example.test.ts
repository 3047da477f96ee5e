import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '@guest/config';
import { parseCatalogNdjson } from '@guest/indexer';
import { checkReferences } from '../../indexer/src/import/check-references.ts';

describe('indexer/README.md', () => {
  it('rule: the documented example file is valid and self-contained (it imports on an empty catalog)', async () => {
    const readme = await readFile(path.join(repoRoot, 'indexer/README.md'), 'utf8');
    const block = /```jsonl\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block, 'README has a ```jsonl example').toBeTruthy();
    const parsed = parseCatalogNdjson(block!);
    expect(parsed.errors).toEqual([]);
    expect(new Set(parsed.records.map((r) => r.record.type))).toEqual(
      new Set(['currency', 'fx_rate', 'place', 'category', 'amenity', 'listing', 'event']),
    );
    const empty = {
      places: new Map(),
      categories: new Map(),
      amenities: new Set<string>(),
      currencies: new Set<string>(),
    };
    expect(checkReferences(parsed.records, empty)).toEqual([]);
  });
});
