import type { Dsl } from '@guest/search-engine';
import type { VocabularyHit } from './lexicon.ts';
import { isFreeWord, type PlanWord, type QueryPlan } from './understand.ts';
import { isUnspaced } from './text.ts';

/** Where an index keeps what a plan selects: the word fields and the keyword fields of the vocabulary. */
export interface PlanTargets {
  /** Text fields the words are looked for in, with boosts (never the place names: places are selected by id). */
  fields: readonly string[];
  /** Field of the ids of a document's place and its ancestors. */
  placePath: string;
  /** Keyword fields of category codes, amenity codes and the stay's property type (absent: not in this index). */
  codes: Partial<Record<VocabularyHit['field'], string>>;
}

/**
 * Score of a listing whose category, amenity or property type the word names: above any text
 * score of the word (a title's BM25 with its boost stays well below), so "kitchen" finds stays
 * with a kitchen before a "Vegan kitchen", and the text orders within each group.
 */
const NAMED_BOOST = 100;

/**
 * One word: in a text field (stemmed per language: word forms; or, with a small typo, as written),
 * or as one of its synonyms, or as the category, amenity or property type it names (which rank
 * highest: a villa above a "villa cleaning" service). Fuzziness `AUTO:4,12`: one edit from four
 * letters, so "car" never becomes "bar" and "Chalong" never "Chaweng" (two edits were allowed
 * from seven).
 */
export function planWordClause(w: PlanWord, t: PlanTargets): Dsl {
  const fields = [...t.fields];
  const should: Dsl[] = [
    { multi_match: { query: w.text, fields, type: 'best_fields', operator: 'and', boost: 2, zero_terms_query: 'all' } },
    // Typos on the words as written (folded, not stemmed): a stem is short and one edit from
    // unrelated stems ("nothing" is "noth", one letter from "note").
    {
      match: {
        text_all: {
          query: w.text,
          operator: 'and',
          fuzziness: 'AUTO:4,12',
          prefix_length: 1,
          max_expansions: 20,
        },
      },
    },
  ];
  for (const alt of w.alternatives) {
    should.push({ multi_match: { query: alt, fields, type: 'best_fields', operator: 'and', boost: 1.5 } });
  }
  const byField = new Map<string, string[]>();
  for (const hit of w.vocabulary) {
    const field = t.codes[hit.field];
    if (field) byField.set(field, [...(byField.get(field) ?? []), hit.code]);
  }
  for (const [field, codes] of byField) {
    should.push({ constant_score: { filter: { terms: { [field]: codes } }, boost: NAMED_BOOST } });
  }
  // Thai and Chinese: a short form may be the start of one longer dictionary word.
  if (isUnspaced(w.text)) should.push({ prefix: { text_all: { value: w.text.replace(/ /g, '') } } });
  return { bool: { should, minimum_should_match: 1 } };
}

/** The clauses of a plan's places and words (its intents are the caller's: they differ per index). */
export interface PlanClauses {
  must: Dsl[];
  should: Dsl[];
  filter: Dsl[];
  /**
   * Words that only rank because the rest of the query binds (a place, a category, an intent):
   * "beach" in "Patong Beach". The answer is what the binding part selects, the words that match
   * first; those no result has are reported to the client.
   */
  relaxed: PlanWord[];
}

/**
 * The plan as query clauses: its places as a filter (exact: the place and what lies below it);
 * every word that names a category, amenity or property type a must (by its code or its text);
 * the other words a must when nothing else binds the query, else only scoring (more and rarer
 * matched words first); generic words and the whole phrase only scoring. `intentsBind` says whether
 * the plan's intents select something in this index (the caller knows which apply).
 */
export function planClauses(
  plan: QueryPlan,
  t: PlanTargets,
  opts: { intentsBind?: boolean | undefined } = {},
): PlanClauses {
  const filter: Dsl[] = plan.placeIds.length ? [{ terms: { [t.placePath]: plan.placeIds } }] : [];
  // A destination the catalog does not serve: nothing there, whatever else `q` says.
  if (plan.elsewhere.length) filter.push({ match_none: {} });
  const named = plan.words.filter((w) => !w.generic && !isFreeWord(w));
  const free = plan.words.filter(isFreeWord);
  const binds = plan.placeIds.length > 0 || named.length > 0 || !!opts.intentsBind;
  // A word that names something specific (golf, a helicopter) is never relaxed.
  const must = [...named, ...(binds ? free.filter((w) => w.specific) : free)].map((w) => planWordClause(w, t));
  const relaxed = binds ? free.filter((w) => !w.specific) : [];
  const should = [...relaxed, ...plan.words.filter((w) => w.generic)].map((w) => planWordClause(w, t));
  if (plan.words.length > 1) {
    should.push({ match_phrase: { text_all: { query: plan.words.map((w) => w.text).join(' '), slop: 1, boost: 2 } } });
  }
  return { must, should, filter, relaxed };
}

/** Whether the plan scores anything (otherwise a "relevance" order has nothing to rank by). */
export function planHasWords(plan: QueryPlan | null | undefined): boolean {
  return !!plan && plan.words.length > 0;
}
