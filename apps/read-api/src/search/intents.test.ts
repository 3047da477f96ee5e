import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '@guest/config';
import { SearchFilters, type Filters } from './params.ts';
import { buildFilterClauses, buildListingQuery, relaxedWords, type QueryContext } from './query.ts';
import { listingIntentClauses } from './intents.ts';
import { feedSort } from './feed.ts';
import { buildRelatedQuery, EXACT_MATCH } from './related.ts';
import { buildLexicon, type IntentData } from '../query-understanding/lexicon.ts';
import { understand } from '../query-understanding/understand.ts';

const data = (file: string) => JSON.parse(readFileSync(path.join(repoRoot, 'mappings', file), 'utf8'));
const intents = data('intents.json') as IntentData;
const lexicon = buildLexicon({
  places: [
    { id: 1, slug: 'phuket', level: 'region', popular: true, pathIds: [1], name: { en: 'Phuket' } },
    { id: 2, slug: 'rawai', level: 'district', popular: false, pathIds: [1, 2], name: { en: 'Rawai' } },
    { id: 3, slug: 'nai-harn', level: 'area', popular: false, pathIds: [1, 2, 3], name: { en: 'Nai Harn' } },
  ],
  categories: [
    { code: 'massage', name: { en: 'Massage' }, kinds: ['service'] },
    { code: 'nanny', name: { en: 'Nanny' }, kinds: ['service'] },
  ],
  amenities: [{ code: 'pool', name: { en: 'Pool' }, kinds: ['stay'] }],
  aliases: {},
  synonyms: data('synonyms.json'),
  intents,
  elsewhere: data('places-elsewhere.json'),
});
const base: QueryContext = { fx: { base: 'THB', rates: {} }, baseCurrency: 'THB' };
const ctxOf = (q: string): QueryContext => ({ ...base, plan: understand(q, lexicon) });
const f = (q: Record<string, unknown>): Filters => SearchFilters.parse(q);
const clausesOf = (q: string, extra: Record<string, unknown> = {}) =>
  listingIntentClauses(understand(q, lexicon), f({ q, ...extra }), (p) => buildFilterClauses(p, base));

describe('mappings/intents.json is data the API understands', () => {
  // A misspelt parameter would be dropped without a word by a lenient parse: refused here.
  const strict = SearchFilters.strict().partial();
  const filterSets = [
    ...Object.entries(intents.intents).flatMap(([id, spec]) =>
      [...Object.entries(spec.listings ?? {}), ...Object.entries(spec.boost ?? {})].map(
        ([kind, p]) => [id, kind, p] as const,
      ),
    ),
    ...intents.patterns.flatMap((spec) =>
      Object.entries(spec.listings ?? {}).map(([kind, p]) => [spec.re, kind, p] as const),
    ),
  ];

  it('every listings filter of an intent is a valid set of search parameters, for a listing kind', () => {
    for (const [id, kind, params] of filterSets) {
      expect(['*', 'stay', 'experience', 'service', 'transport', 'food'], `${id}: kind ${kind}`).toContain(kind);
      // As a client would send them: query-string values.
      const asQuery = (v: unknown) => (v === '$1' ? '2' : Array.isArray(v) ? v : String(v));
      const withNumbers = Object.fromEntries(Object.entries(params).map(([k, v]) => [k, asQuery(v)]));
      const parsed = strict.safeParse(withNumbers);
      expect(parsed.success, `${id} (${kind}): ${JSON.stringify(params)} ${parsed.error?.message ?? ''}`).toBe(true);
    }
  });

  it('every events effect names an events filter value; every phrase list is in the four languages', () => {
    const allowed: Record<string, string[]> = {
      entry: ['free', 'paid'],
      time: ['morning', 'day', 'evening'],
      audience: ['family', 'adults'],
      day: ['today', 'tomorrow', 'weekend', 'week'],
      category: ['music', 'market', 'wellness', 'nightlife', 'sport', 'festival', 'kids'],
    };
    for (const [id, spec] of Object.entries(intents.intents)) {
      for (const [k, v] of Object.entries(spec.events ?? {})) expect(allowed[k], `${id}: events.${k}`).toContain(v);
      expect(Object.keys(spec.phrases).sort(), id).toEqual(['en', 'ru', 'th', 'zh-Hans']);
    }
  });
});

describe('intents as the filters of the API', () => {
  it('a kind-specific intent filters the kind it is about: stays, when the query names no kind', () => {
    const c = clausesOf('pet friendly');
    expect(c.binds).toBe(true);
    expect(c.filter).toEqual([
      { bool: { filter: [{ term: { kind: 'stay' } }, { term: { 'stay.pets_allowed': true } }] } },
    ]);
  });

  it('with others kept, kinds the intent does not concern stay as they are', () => {
    // "kids" is about stays (children allowed); a nanny is a service and stays one.
    const c = clausesOf('nanny for kids');
    expect(JSON.stringify(c.filter)).not.toContain('children_allowed');
  });

  it('a filter the client sends wins over the same filter in words', () => {
    expect(JSON.stringify(clausesOf('pet friendly', { pets_allowed: 'false' }).filter)).not.toContain('pets_allowed');
    expect(JSON.stringify(clausesOf('near the beach', { beach_distance_max: '2000' }).filter)).not.toContain('500');
  });

  it('an intent about none of the kinds the query names is left out, not an empty answer', () => {
    expect(clausesOf('pet friendly massage').filter).toEqual([]);
  });

  it('a kind word filters the kind unless the client chose one', () => {
    expect(clausesOf('things to do').filter).toEqual([{ term: { kind: 'experience' } }]);
    expect(clausesOf('things to do', { kind: 'stay' }).filter).toEqual([]);
  });

  it('orders: cheap is price_asc, best is rating, near me is distance only with near', () => {
    expect(feedSort(f({ q: 'cheap villa' }), ctxOf('cheap villa'), 'relevance')).toBe('price_asc');
    expect(feedSort(f({ q: 'cheap villa' }), ctxOf('cheap villa'), 'new')).toBe('new');
    expect(feedSort(f({ q: 'best massage' }), ctxOf('best massage'), 'relevance')).toBe('rating');
    expect(feedSort(f({ q: 'massage near me' }), ctxOf('massage near me'), 'relevance')).toBe('relevance');
    expect(feedSort(f({ q: 'massage near me', near: '7.8,98.3' }), ctxOf('massage near me'), 'relevance')).toBe(
      'distance',
    );
  });

  it('boosts rank without filtering: the word "beach" prefers stays near one', () => {
    const c = clausesOf('Rawai beach');
    expect(c.filter).toEqual([]);
    expect(c.should).toEqual([
      {
        constant_score: {
          filter: {
            bool: { filter: [{ term: { kind: 'stay' } }, { range: { 'stay.beach_distance_m': { lte: 1000 } } }] },
          },
          boost: 50,
        },
      },
    ]);
  });
});

describe('relaxed words and the related reading', () => {
  it('a word the rest of the query does not need only ranks, and is reported when nothing has it', () => {
    const q = 'quiet villa Rawai';
    expect(relaxedWords(f({ q }), ctxOf(q)).map((w) => w.text)).toEqual(['quiet']);
    const query = buildListingQuery(f({ q }), ctxOf(q)) as { bool: { must: unknown[]; should: unknown[] } };
    expect(JSON.stringify(query.bool.must)).not.toContain('"quiet"');
    expect(JSON.stringify(query.bool.should)).toContain('"quiet"');
  });

  it('nothing binds: the words are all required', () => {
    expect(relaxedWords(f({ q: 'quiet garden' }), ctxOf('quiet garden'))).toEqual([]);
  });

  it('a destination elsewhere matches nothing at all', () => {
    const query = buildListingQuery(f({ q: 'villa Bali' }), ctxOf('villa Bali'));
    expect(JSON.stringify(query)).toContain('{"match_none":{}}');
    expect(buildRelatedQuery(f({ q: 'villa Bali' }), ctxOf('villa Bali'))).toBeNull();
  });

  it('related: the area widens to its region, the property type to stays; exact matches score first', () => {
    const q = 'villa Nai Harn';
    const related = buildRelatedQuery(f({ q }), ctxOf(q))!;
    const s = JSON.stringify(related.query);
    expect(s).toContain('{"terms":{"place_path_ids":[1]}}'); // Phuket, the region
    expect(s).toContain('{"term":{"kind":"stay"}}');
    expect(s).toContain(`"_name":"${EXACT_MATCH}"`);
    expect(JSON.stringify(related.exact)).toContain('{"terms":{"place_path_ids":[3]}}');
  });

  it('a category is never widened; a region alone has nothing to widen', () => {
    expect(buildRelatedQuery(f({ q: 'massage Phuket' }), ctxOf('massage Phuket'))).toBeNull();
  });
});
