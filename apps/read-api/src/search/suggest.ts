import type { ListingKind } from '@guest/catalog';
import type { Dsl } from '@guest/search-engine';
import type { QueryPlan } from '../query-understanding/understand.ts';

/**
 * Search-as-you-type over translated names (spec 4.7 suggest): every word but the last must be
 * a whole word, the last may be a prefix; a whole word with a small typo also matches.
 * `suggest` is a plain text field with `index_prefixes` and shingle subfields (what
 * `search_as_you_type` builds, in the portable subset: that type is absent from a minimal
 * Elasticsearch), so `bool_prefix` behaves the same on both engines.
 */
export function suggestQuery(q: string): Dsl {
  return {
    bool: {
      should: [
        {
          multi_match: {
            query: q,
            type: 'bool_prefix',
            fields: ['suggest', 'suggest._2gram', 'suggest._3gram'],
            operator: 'and',
          },
        },
        { match: { suggest: { query: q, operator: 'and', fuzziness: 'AUTO:3,6', prefix_length: 1, boost: 0.5 } } },
      ],
      minimum_should_match: 1,
    },
  };
}

export const PLACE_SUGGEST_SOURCE = ['id', 'slug', 'name', 'name_full', 'level'] as const;
export const LISTING_SUGGEST_SOURCE = ['id', 'kind', 'title', 'original_lang', 'place'] as const;

/**
 * Places by name in any language (popular places rank a little higher), together with `byPrefix`:
 * the places query understanding found by a prefix of a name or an alias (Thai and Chinese names
 * are dictionary words, which the engine's prefixes cut apart: ภูเก of ภูเก็ต). The service puts
 * those first, in their order (`orderSuggestedPlaces`).
 */
export function buildPlaceSuggestRequest(q: string, size: number, byPrefix: number[] = []): Dsl {
  const should: Dsl[] = [suggestQuery(q)];
  if (byPrefix.length) should.push({ terms: { id: byPrefix } });
  return {
    size: size + byPrefix.length,
    _source: [...PLACE_SUGGEST_SOURCE],
    query: {
      bool: {
        must: [{ bool: { should, minimum_should_match: 1 } }],
        should: [{ term: { popular: { value: true, boost: 0.5 } } }],
      },
    },
    sort: [{ _score: { order: 'desc' } }, { id: { order: 'asc' } }],
  };
}

/** The places found by prefix first (their order), then the engine's, each once, at most `size`. */
export function orderSuggestedPlaces<P extends { id: number }>(hits: P[], byPrefix: number[], size: number): P[] {
  const byId = new Map(hits.map((h) => [h.id, h]));
  const first = byPrefix.map((id) => byId.get(id)).filter((p): p is P => p !== undefined);
  const seen = new Set(first.map((p) => p.id));
  return [...first, ...hits.filter((h) => !seen.has(h.id))].slice(0, size);
}

/** With a kind, only places that hold listings of that kind (at any depth) are suggested. */
export function buildPlacesWithKindRequest(placeIds: number[], kind: ListingKind): Dsl {
  return {
    size: 0,
    query: { bool: { filter: [{ term: { kind } }, { terms: { place_path_ids: placeIds } }] } },
    aggs: { places: { terms: { field: 'place_path_ids', include: placeIds, size: placeIds.length } } },
  };
}

export function buildListingSuggestRequest(q: string, kind: ListingKind | undefined, size: number): Dsl {
  const bool: Dsl = { must: [suggestQuery(q)] };
  if (kind) bool.filter = [{ term: { kind } }];
  return {
    size,
    _source: [...LISTING_SUGGEST_SOURCE],
    query: { bool },
    sort: [{ _score: { order: 'desc' } }, { rating_count: { order: 'desc' } }, { id: { order: 'asc' } }],
  };
}

/**
 * Suggestions a guest cannot tell apart are one: the first (best ranked) of each text `key`
 * gives (a title with its place, case and spacing aside), at most `size`.
 */
export function foldSame<T>(items: T[], key: (item: T) => string, size: number): T[] {
  const seen = new Set<string>();
  const out: T[] = [];
  for (const item of items) {
    const k = key(item).normalize('NFKC').toLocaleLowerCase('en').replace(/\s+/g, ' ').trim();
    if (seen.has(k)) continue;
    seen.add(k);
    out.push(item);
    if (out.length >= size) break;
  }
  return out;
}

/** Listing suggestions are asked for this many times the limit, so that folding still fills it. */
export const LISTING_SUGGEST_OVERFETCH = 4;

/** The category codes the words of `q` name (themselves or through a synonym), in the order typed, once each. */
export function categoryCodesOf(plan: Pick<QueryPlan, 'words'> | null): string[] {
  const codes: string[] = [];
  for (const w of plan?.words ?? []) {
    for (const hit of w.vocabulary) if (hit.field === 'category' && !codes.includes(hit.code)) codes.push(hit.code);
  }
  return codes;
}
