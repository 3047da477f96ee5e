import { describe, expect, it } from 'vitest';
import { byLine, parseCatalogNdjson, printable } from './parse-ndjson.ts';

const currency = (over: Record<string, unknown> = {}) =>
  JSON.stringify({ type: 'currency', code: 'THB', name: { en: 'Baht' }, minor_units: 2, ...over });

describe('parseCatalogNdjson: text Postgres cannot store is a line error', () => {
  it('names the field of a NUL or a lone surrogate, in values at any depth and in keys', () => {
    const r = parseCatalogNdjson(
      [
        currency({ name: { en: 'Ba\u0000ht' } }),
        currency({ code: 'USD', name: { en: '\udc00 low alone' } }),
        currency({ code: 'EUR', name: { en: 'high alone \ud83d' } }),
        currency({ code: 'CNY', name: { en: 'a pair is fine 🌴' } }),
        '{"type":"amenity","code":"x","group":"g","kinds":["st\\u0000ay"],"name":{"en":"X"}}',
      ].join('\n'),
    );
    expect(r.errors).toEqual([
      'line 1: name.en: contains a NUL character (\\u0000)',
      'line 2: name.en: contains a lone surrogate (invalid Unicode)',
      'line 3: name.en: contains a lone surrogate (invalid Unicode)',
      expect.stringMatching(/^line 5: kinds\.0: contains a NUL character \(\\u0000\)/),
    ]);
    expect(r.records.map((l) => l.line)).toEqual([4]);
  });

  it('never quotes the line in a JSON error', () => {
    const r = parseCatalogNdjson('{"type":"place","external_id": secret-secret-secret}');
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatch(/^line 1: not valid JSON \(Unexpected token 's'\)$/);
  });

  it('remembers the keys bad lines declare, so references to them are not reported twice', () => {
    const r = parseCatalogNdjson(
      '{"type":"place","external_id":"P-1","level":"galaxy"}\n{"type":"currency","code":"XYZ","name":{}}',
    );
    expect([...r.declared.places]).toEqual(['P-1']);
    expect([...r.declared.currencies]).toEqual(['XYZ']);
  });
});

describe('error lines', () => {
  it('print NUL and lone surrogates as escapes', () => {
    expect(printable('a\u0000b\ud800c🌴')).toBe('a\\u0000b\\ud800c🌴');
  });
  it('come in line order, each line keeping the order of its reasons', () => {
    expect(byLine(['line 10: b', 'line 2: a', 'line 10: c', 'line 1: z'])).toEqual([
      'line 1: z',
      'line 2: a',
      'line 10: b',
      'line 10: c',
    ]);
  });
});
