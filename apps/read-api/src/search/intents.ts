import type { Dsl } from '@guest/search-engine';
import type { KindFilters } from '../query-understanding/lexicon.ts';
import type { QueryPlan } from '../query-understanding/understand.ts';
import type { Filters, Sort } from './params.ts';

/**
 * The intents of a query plan (mappings/intents.json) as listing search clauses: the same filters
 * a client sends as parameters (`pets_allowed`, `beach_distance_max`, `long_stay`, `diets`, …),
 * applied to the kind the query is about, plus boosts and an order. Pure: plan and filters in,
 * query DSL out.
 */

export interface IntentClauses {
  /** Filters the intents add (a kind, the kind-specific filters). */
  filter: Dsl[];
  /** Boosts: listings that fit rank first, the others stay. */
  should: Dsl[];
  /** Whether the intents select something (then the query's other words only rank). */
  binds: boolean;
  /** The kind the intents name ("things to do": experiences): a filter in `filter`, kept as it is by the related reading. */
  kinds: Dsl[];
  /** The kind-specific filters of `filter` ("pet friendly"). */
  attributes: Dsl[];
  /** Those of `attributes` that are preferences (Chinese speaking, automatic): the related reading ranks by them instead. */
  preferences: Dsl[];
  /** The kinds `attributes` are about, where they leave out the other kinds ("pet friendly": stays). */
  attributeKinds: string[];
  /** The order the intents ask for when the client asked for relevance. */
  sort?: Sort;
}

/** Builds the filter clauses of a set of filter parameters (search/query.ts `buildFilterClauses`). */
export type FilterClauseBuilder = (filters: Filters) => { filter: Dsl[]; must_not: Dsl[] };

/** Score of a listing that fits a boost: above a text match of one word, below a named code. */
const BOOST = 50;

const asFilters = (params: Record<string, unknown>) => ({ kind: 'all', ...params }) as Filters;

/**
 * The kinds a query is about: the client's kind, else the kinds its intents and its named codes
 * concern, else the kind a word means when nothing else names one ("tour": experiences).
 */
export function impliedKinds(plan: QueryPlan, f: Pick<Filters, 'kind'>): string[] {
  if (f.kind !== 'all') return [f.kind];
  const fromIntents = plan.intents.map((i) => i.effect.kind).filter((k): k is string => !!k);
  if (fromIntents.length) return [...new Set(fromIntents)];
  const fromWords = [...new Set(plan.words.filter((w) => !w.generic).flatMap((w) => w.kinds))];
  if (fromWords.length) return fromWords;
  return defaultKinds(plan);
}

function defaultKinds(plan: QueryPlan): string[] {
  return [...new Set(plan.intents.map((i) => i.effect.defaultKind).filter((k): k is string => !!k))];
}

/**
 * One intent's per-kind filters as one clause: for each kind the query is about, that kind with
 * its filters; a kind the intent does not concern is kept with `others: keep`, else dropped. When
 * the query names no kind, the intent's first kind is meant ("pet friendly" is about stays).
 * Null when the intent concerns none of the query's kinds ("pet friendly scooter").
 */
function perKind(
  byKind: KindFilters,
  kinds: string[],
  keepOthers: boolean,
  build: FilterClauseBuilder,
): { clause: Dsl; kinds: string[] } | null {
  const own = Object.keys(byKind).filter((k) => k !== '*');
  const all = byKind['*'] ? build(asFilters(byKind['*'])).filter : [];
  if (!own.length) return all.length ? { clause: { bool: { filter: all } }, kinds: [] } : null;
  const about = kinds.length ? kinds : [own[0]!];
  const parts: Dsl[] = [];
  let concerns = false;
  for (const kind of about) {
    const params = byKind[kind];
    if (params) {
      concerns = true;
      parts.push({ bool: { filter: [{ term: { kind } }, ...build(asFilters(params)).filter, ...all] } });
    } else if (keepOthers) {
      parts.push({ bool: { filter: [{ term: { kind } }, ...all] } });
    }
  }
  if (!concerns) return null;
  return {
    clause: parts.length === 1 ? parts[0]! : { bool: { should: parts, minimum_should_match: 1 } },
    kinds: keepOthers ? [] : about.filter((k) => byKind[k]),
  };
}

/** An intent's filters without those the client sent itself: a parameter wins over words of `q`. */
function clientWins(byKind: KindFilters, f: Filters): KindFilters {
  const sent = (k: string) => (f as Record<string, unknown>)[k] !== undefined;
  return Object.fromEntries(
    Object.entries(byKind).map(([kind, params]) => [
      kind,
      Object.fromEntries(Object.entries(params).filter(([k]) => !sent(k))),
    ]),
  );
}

const hasAny = (byKind: KindFilters) => Object.values(byKind).some((p) => Object.keys(p).length > 0);

export function listingIntentClauses(plan: QueryPlan | null, f: Filters, build: FilterClauseBuilder): IntentClauses {
  const out: IntentClauses = {
    filter: [],
    should: [],
    binds: false,
    kinds: [],
    attributes: [],
    preferences: [],
    attributeKinds: [],
  };
  if (!plan?.intents.length) return out;
  const kinds = impliedKinds(plan, f);
  let intentKinds = [...new Set(plan.intents.map((i) => i.effect.kind).filter((k): k is string => !!k))];
  // A word's default kind applies when neither an intent nor a named code says which kind is meant.
  if (!intentKinds.length && !plan.words.some((w) => !w.generic && w.kinds.length)) intentKinds = defaultKinds(plan);
  if (intentKinds.length && f.kind === 'all') {
    out.kinds.push(intentKinds.length === 1 ? { term: { kind: intentKinds[0] } } : { terms: { kind: intentKinds } });
    out.binds = true;
  }
  for (const { effect } of plan.intents) {
    const listings = effect.listings && clientWins(effect.listings, f);
    if (listings && hasAny(listings)) {
      const applied = perKind(listings, kinds, effect.others === 'keep', build);
      if (applied) {
        out.attributes.push(applied.clause);
        if (!effect.hard) out.preferences.push(applied.clause);
        out.attributeKinds.push(...applied.kinds.filter((k) => !out.attributeKinds.includes(k)));
        out.binds = true;
      }
    }
    if (effect.boost) {
      const applied = perKind(effect.boost, kinds, true, build);
      if (applied) out.should.push({ constant_score: { filter: applied.clause, boost: BOOST } });
    }
    if (!out.sort && effect.rank) out.sort = effect.rank;
    if (!out.sort && effect.near && f.near) out.sort = 'distance';
  }
  out.filter = [...out.kinds, ...out.attributes];
  return out;
}
