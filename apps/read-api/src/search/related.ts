import type { Dsl } from '@guest/search-engine';
import { planClauses, planWordClause } from '../query-understanding/dsl.ts';
import { isFreeWord } from '../query-understanding/understand.ts';
import { buildFilterClauses, intentsOf, LISTING_TARGETS, planOf, type QueryContext } from './query.ts';
import type { Filters } from './params.ts';

/**
 * The feed's "related" reading of `q`: what `q` names, widened one step, ranked after every
 * listing that matches `q` exactly. A place widens to its region (its own place first, then the
 * place above it); a property type or an amenity to the kind it belongs to ("condo in Jomtien":
 * condos in Jomtien, then stays in Jomtien and condos elsewhere in Pattaya). A category is never
 * widened (yoga is no stand-in for a cooking class), nor the client's filters, nor the intents
 * that are needs (pets, parties, a diet); those that are preferences (Chinese speaking, a manual
 * gearbox) rank instead of filter: listings that have them come first among the related ones.
 * Pure: filters in, query DSL out.
 */

/** Name of the clause an exact match carries (`matched_queries`). */
export const EXACT_MATCH = 'exact';
/** Scores that order the answer: exact matches above all, then the named place, then the place above it. */
const EXACT = 10_000;
const INTENT = 2_000;
const PLACE = 1_000;
const PARENT = 500;
const SIBLING = 300;

/** Sibling codes by the index field they are kept in. */
function siblingCodes(
  hits: Array<{ field: keyof typeof LISTING_TARGETS.codes; code: string }>,
): Array<[string, string[]]> {
  const byField = new Map<string, string[]>();
  for (const h of hits) {
    const field = LISTING_TARGETS.codes[h.field];
    if (field) byField.set(field, [...(byField.get(field) ?? []), h.code]);
  }
  return [...byField];
}

export interface RelatedQuery {
  /** Every listing that matches exactly or related, exact ones first. */
  query: Dsl;
  /** The exact matches (the strict reading of `q`). */
  exact: Dsl;
}

/** Null when there is nothing to widen (no place below a region, no code of a kind). */
export function buildRelatedQuery(f: Filters, ctx: QueryContext): RelatedQuery | null {
  const plan = planOf(f, ctx);
  if (!plan || plan.elsewhere.length) return null;
  const named = plan.words.filter((w) => !w.generic && !isFreeWord(w));
  const widenable = named.filter((w) => w.kinds.length > 0 && w.vocabulary.every((v) => v.field !== 'category'));
  const intents = intentsOf(f, ctx);
  if (!plan.wider.some((p) => p.region !== null) && !widenable.length && !intents.preferences.length) return null;
  const text = planClauses(plan, LISTING_TARGETS, { intentsBind: intents.binds });
  const { filter, must_not } = buildFilterClauses(f, ctx);
  // The strict reading of `q`: its places, its named and specific words, its intents.
  const exact: Dsl = { bool: { filter: [...text.filter, ...intents.attributes, ...text.must] } };

  const scope = [...new Set(plan.wider.map((p) => p.region ?? p.id))];
  // Words that name something specific stay required (golf is golf, nearby or not).
  const must: Dsl[] = plan.words
    .filter((w) => isFreeWord(w) && w.specific)
    .map((w) => planWordClause(w, LISTING_TARGETS));
  // The kinds of every named word together ("villa cleaning" is a service that names a villa), or
  // those the intents' attributes are about ("nightlife": bars, so food).
  const kinds = widenable.length ? [...new Set(named.flatMap((w) => w.kinds))] : intents.attributeKinds;
  const kindFilters: Dsl[] = kinds.length
    ? [kinds.length === 1 ? { term: { kind: kinds[0] } } : { terms: { kind: kinds } }]
    : [];
  const should: Dsl[] = [{ constant_score: { filter: exact, boost: EXACT, _name: EXACT_MATCH } }];
  for (const w of named) {
    const clause = planWordClause(w, LISTING_TARGETS);
    if (widenable.includes(w)) {
      should.push(clause);
      for (const [field, codes] of siblingCodes(w.siblings ?? [])) {
        should.push({ constant_score: { filter: { terms: { [field]: codes } }, boost: SIBLING } });
      }
    } else {
      must.push(clause);
    }
  }
  for (const p of plan.wider) {
    should.push({ constant_score: { filter: { term: { place_path_ids: p.id } }, boost: PLACE } });
    if (p.parent !== null && p.parent !== p.region) {
      should.push({ constant_score: { filter: { term: { place_path_ids: p.parent } }, boost: PARENT } });
    }
  }
  for (const a of intents.preferences) should.push({ constant_score: { filter: a, boost: INTENT } });
  const needs = intents.attributes.filter((a) => !intents.preferences.includes(a));
  should.push(...text.should, ...intents.should);
  // Every exact match is in the answer, whatever the widening keeps (a "Villa cleaning" service
  // matches "villa Kata" exactly, though the related ones are stays).
  const broad: Dsl = {
    bool: {
      filter: [...(scope.length ? [{ terms: { place_path_ids: scope } }] : []), ...kindFilters],
      ...(must.length ? { must } : {}),
    },
  };
  const bool: Dsl = {
    should,
    filter: [...filter, ...intents.kinds, ...needs, { bool: { should: [exact, broad], minimum_should_match: 1 } }],
  };
  if (must_not.length) bool.must_not = must_not;
  return { query: { bool }, exact };
}
