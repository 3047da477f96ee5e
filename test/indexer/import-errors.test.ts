import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '@guest/config';
import { importCatalogText } from '@guest/indexer';
import { startTestRuntime, type TestRuntime } from '../support/test-app.ts';
import { runIndexerCli } from '../support/indexer-cli.ts';

/**
 * `catalog import` of a file holding bad lines of every kind, as an operator runs it: one
 * refusal (exit 65) names every bad line as `line N: field: reason`, whatever check found it
 * (JSON, text Postgres cannot store, schema, references, duplicates, slugs held in the catalog),
 * writes nothing, and never prints a record's content.
 */
describe('catalog import: every bad line named, in one pass', () => {
  let t: TestRuntime;
  let dir: string;
  let small: string[];
  beforeAll(async () => {
    t = await startTestRuntime();
    dir = await mkdtemp(path.join(os.tmpdir(), 'catalog-errors-'));
    const text = await readFile(path.join(repoRoot, 'test/fixtures/catalog/small.ndjson'), 'utf8');
    small = text.trimEnd().split('\n');
    await importCatalogText(t.runtime.database, text);
  });
  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const counts = async () =>
    (
      await t.sql.query(
        `select (select count(*)::int from currencies) as currencies, (select count(*)::int from places) as places,
                (select count(*)::int from listings) as listings, (select count(*)::int from amenities) as amenities,
                (select count(*)::int from catalog_outbox) as outbox`,
      )
    ).rows[0];

  it('rule: NUL, lone surrogates, bad JSON, schema, reference, duplicate and slug errors are all reported by line, exit 65, no content', async () => {
    const secret = 'Secret-content '.repeat(650); // about 9.5 KB, like the audit's record
    const dive = JSON.parse(small[14]!); // L-1002, an experience in P-KATA
    const party = JSON.parse(small[17]!); // E-78, an event in P-KATA
    const listing = (over: Record<string, unknown>) => JSON.stringify({ ...dive, ...over });
    const lines = [
      /* 1 */ '{"type":"currency","code":"JPY","name":{"en":"Yen"},"minor_units":0}',
      /* 2 */ listing({ external_id: 'L-NUL', title: { en: `${secret}\u0000` } }),
      /* 3 */ listing({ external_id: 'L-SURROGATE', description: { ru: `${secret}\ud83d` } }),
      /* 4 */ `{"type":"listing","title":{"en":"${secret}"} oops}`,
      /* 5 */ '{"type":"place","external_id":"P-BAD","parent":"P-PHUKET","level":"galaxy","slug":"bad-place","name":{"en":"Bad"}}',
      /* 6 */ listing({ external_id: 'L-ON-BAD-PLACE', place: 'P-BAD' }),
      /* 7 */ listing({ external_id: 'L-NOWHERE', place: 'P-MISSING' }),
      /* 8 */ '{"type":"place","external_id":"P-NEW","parent":"P-PHUKET","level":"district","slug":"kata","name":{"en":"Kata too"}}',
      /* 9 */ '{"type":"currency","code":"JPY","name":{"en":"Yen again"},"minor_units":0}',
      /* 10 */ '{"type":"amenity","code":"sauna","group":"facilities","kinds":["stay"],"name":{"en":"Sauna"},"x\\u0000":1}',
      /* 11 */ JSON.stringify({ ...party, external_id: 'E-NEW', slug: 'kata-beach-yoga' }),
      /* 12 */ listing({ external_id: 'L-FINE' }),
    ];
    const at = lines[3]!.indexOf('oops'); // where the parser stops
    const file = path.join(dir, 'bad.ndjson');
    await writeFile(file, `${lines.join('\n')}\n`);
    const before = await counts();

    const r = await runIndexerCli(t, ['catalog', 'import', file]);
    expect(r.code, r.stderr).toBe(65);
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      'catalog import refused, nothing was written:',
      '  line 2: title.en: contains a NUL character (\\u0000)',
      '  line 3: description.ru: contains a lone surrogate (invalid Unicode)',
      `  line 4: not valid JSON (Expected ',' or '}' after property value in JSON at position ${at} (line 1 column ${at + 1}))`,
      '  line 5: level: Invalid option: expected one of "country"|"region"|"district"|"area"',
      '  line 7: place: "P-MISSING" is not in the file or the catalog',
      '  line 8: slug: "kata" is already used by the place "P-KATA" in the catalog',
      '  line 9: duplicate currency:JPY (first on line 1)',
      '  line 10: x\\u0000: the key contains a NUL character (\\u0000); Unrecognized key: "x\\u0000"',
      '  line 11: slug: "kata-beach-yoga" is already used by the event "E-77" in the catalog',
    ]);
    expect(r.stderr).not.toContain('Secret-content');
    expect(r.stderr).not.toMatch(/Failed query|insert into|params:/i);
    expect(r.stderr).not.toContain('\u0000');
    expect(await counts(), 'nothing of a refused file is written').toEqual(before);
  }, 60_000);

  it('rule: a unique slug that only the write finds taken (two places swapping slugs) is reported on its line, nothing written', async () => {
    const kata = small[7]!.replace('"slug":"kata"', '"slug":"berlin-test"');
    const berlin = small[8]!.replace('"slug":"berlin-test"', '"slug":"kata"');
    const before = await counts();
    const err = await importCatalogText(t.runtime.database, `${kata}\n${berlin}`).catch((e: unknown) => e);
    expect(err).toMatchObject({
      name: 'CatalogImportError',
      errors: [
        expect.stringMatching(
          /^line [12]: slug: "(berlin-test|kata)" is already used by another place in the catalog$/,
        ),
      ],
    });
    expect(await counts()).toEqual(before);
  });

  it('rule: fixed, the same file imports (the checks above were the only problems)', async () => {
    const dive = JSON.parse(small[14]!);
    const r = await importCatalogText(
      t.runtime.database,
      [
        '{"type":"currency","code":"JPY","name":{"en":"Yen"},"minor_units":0}',
        '{"type":"place","external_id":"P-BAD","parent":"P-PHUKET","level":"area","slug":"bad-place","name":{"en":"Bad"}}',
        JSON.stringify({ ...dive, external_id: 'L-ON-BAD-PLACE', place: 'P-BAD' }),
      ].join('\n'),
    );
    expect(r.byType.listing).toEqual({ created: 1, updated: 0, unchanged: 0 });
  });
});
