import { AppError } from '@guest/http-kit';
import { convertMinor, LISTING_FILTERS, type FxTable } from '@guest/catalog';
import type { Dsl } from '@guest/search-engine';
import { boundingBoxFilter, withinRadiusFilter } from '../geo/filters.ts';
import type { Filters } from './params.ts';
import { planClauses, planHasWords, planWordClause, type PlanTargets } from '../query-understanding/dsl.ts';
import { planOrWords, type PlanWord, type QueryPlan } from '../query-understanding/understand.ts';
import { listingIntentClauses, type IntentClauses } from './intents.ts';

/**
 * Pure translation of the shared search filters into OpenSearch query DSL: request in, JSON out.
 * Every route (feed, map, count) builds its query here, so a filter means the same everywhere.
 */

export interface QueryContext {
  /** Rates for price filters given in another currency than a listing's own. */
  fx: FxTable;
  /** Currency of `price_base_minor` in the index, and the default of `currency`. */
  baseCurrency: string;
  /** What `q` asks for (query understanding); absent: `q` is read as words only. */
  plan?: QueryPlan | null | undefined;
}

/**
 * Text fields the words of `q` are looked for in, all languages at once. Per-language fields carry
 * stemming (Russian word forms, English plurals); `text_all` (ICU words, folded) catches everything
 * else. The name weighs more than the description. Place names are not among them: the places
 * `q` names are recognised by query understanding and selected exactly (`place_path_ids`).
 */
export const TEXT_FIELDS = [
  'title.en^3',
  'title.ru^3',
  'title.th^3',
  'title.zh-Hans^3',
  'description.en',
  'description.ru',
  'description.th',
  'description.zh-Hans',
  'text_all',
] as const;

/** Where the listings index keeps what a query plan selects. */
export const LISTING_TARGETS: PlanTargets = {
  fields: TEXT_FIELDS,
  placePath: 'place_path_ids',
  codes: { category: 'category_codes', amenity: 'amenities', property_type: 'stay.property_type' },
};

/** The plan of `q`: the one the service made with the lexicon, or a words-only one. */
export function planOf(f: Pick<Filters, 'q'>, ctx: Pick<QueryContext, 'plan'>): QueryPlan | null {
  return planOrWords(f.q, ctx.plan);
}

/** Whether `q` leaves something to score by: words, or intents that rank (a `q` of place names only selects). */
export function hasText(f: Filters, ctx: QueryContext): boolean {
  return planHasWords(planOf(f, ctx)) || intentsOf(f, ctx).should.length > 0;
}

function term(field: string, value: unknown): Dsl {
  return { term: { [field]: value } };
}
function terms(field: string, values: unknown[]): Dsl {
  return { terms: { [field]: values } };
}
function range(field: string, r: { gte?: unknown; lte?: unknown; lt?: unknown }): Dsl {
  return { range: { [field]: r } };
}

/** The day after `day` (YYYY-MM-DD), for a one-day availability window. */
export function nextDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
}

/** Converts a price bound of the request currency to base minor units; 400 on `currency` without a rate. */
function toBase(amount: number, currency: string, ctx: QueryContext): number {
  const v = convertMinor(amount, currency, ctx.baseCurrency, ctx.fx);
  if (v === null) {
    throw new AppError('validation_error', `No exchange rate is known for ${currency}.`, {
      field: 'currency',
      reason: 'no_rate',
    });
  }
  return v;
}

function priceClause(f: Filters, ctx: QueryContext): Dsl | null {
  if (f.price_min === undefined && f.price_max === undefined) return null;
  const currency = f.currency ?? ctx.baseCurrency;
  const own: { gte?: number; lte?: number } = {};
  const base: { gte?: number; lte?: number } = {};
  if (f.price_min !== undefined) {
    own.gte = f.price_min;
    base.gte = toBase(f.price_min, currency, ctx);
  }
  if (f.price_max !== undefined) {
    own.lte = f.price_max;
    base.lte = toBase(f.price_max, currency, ctx);
  }
  // In the base currency one range says it all: a listing priced in the base currency has its
  // own price as its base price. It matters to the engine: the disjunction below cost a price
  // filtered count or feed page at 100k listings three times as much.
  if (currency === ctx.baseCurrency) return range('price_base_minor', base);
  // Listings priced in the request currency compare exactly; the others through the base price.
  return {
    bool: {
      should: [
        { bool: { filter: [term('currency', currency), range('price_minor', own)] } },
        { bool: { filter: [range('price_base_minor', base)], must_not: [term('currency', currency)] } },
      ],
      minimum_should_match: 1,
    },
  };
}

/** Capacity: stays by `max_guests`, experiences by group size; the other kinds have none. */
function guestsClause(guests: number): Dsl {
  return {
    bool: {
      should: [
        { bool: { filter: [term('kind', 'stay'), range('stay.max_guests', { gte: guests })] } },
        { bool: { filter: [term('kind', 'experience'), range('experience.group_size_max', { gte: guests })] } },
        { bool: { must_not: [terms('kind', ['stay', 'experience'])] } },
      ],
      minimum_should_match: 1,
    },
  };
}

/**
 * A geo filter on the listing's point, or, for a `city_only` listing (no point), on its place's
 * centre: such a listing is in the area its place is in, in the feed and the count. The map
 * keeps them off anyway (it shows only listings with a point).
 */
function byPointOrPlace(on: (field: string) => Dsl): Dsl {
  return {
    bool: {
      should: [on('location'), { bool: { filter: [term('location_mode', 'city_only'), on('place_center')] } }],
      minimum_should_match: 1,
    },
  };
}

/** Filter clauses (no scoring) and exclusions of the shared filters, text aside. */
export function buildFilterClauses(f: Filters, ctx: QueryContext): { filter: Dsl[]; must_not: Dsl[] } {
  const filter: Dsl[] = [];
  const mustNot: Dsl[] = [];
  if (f.kind !== 'all') filter.push(term('kind', f.kind));
  if (f.bbox) filter.push(byPointOrPlace((field) => boundingBoxFilter(f.bbox!, field)));
  if (f.near && f.radius_m !== undefined) {
    const { near, radius_m: radiusM } = f;
    filter.push(byPointOrPlace((field) => withinRadiusFilter(near, radiusM, field)));
  }
  if (f.date_from) {
    const to = f.date_to && f.date_to > f.date_from ? f.date_to : nextDay(f.date_from);
    mustNot.push({ range: { blocked: { gte: f.date_from, lt: to, relation: 'intersects' } } });
  }
  if (f.guests !== undefined) filter.push(guestsClause(f.guests));
  const price = priceClause(f, ctx);
  if (price) filter.push(price);

  // The attribute filters (listing-attributes.ts), each by its operation on its document field.
  const given = f as Record<string, unknown>;
  for (const a of LISTING_FILTERS) {
    const v = given[a.param];
    if (v === undefined) continue;
    switch (a.op) {
      case 'min':
        filter.push(range(a.field, { gte: v }));
        break;
      case 'max':
        filter.push(range(a.field, { lte: v }));
        break;
      case 'is':
        filter.push(term(a.field, v));
        break;
      case 'any':
        filter.push(terms(a.field, v as unknown[]));
        break;
      case 'all':
        for (const one of v as unknown[]) filter.push(term(a.field, one));
        break;
    }
  }
  return { filter, must_not: mustNot };
}

/** What the intents of `q` add to the shared filters (see intents.ts). */
export function intentsOf(f: Filters, ctx: QueryContext): IntentClauses {
  return listingIntentClauses(planOf(f, ctx), f, (params) => buildFilterClauses(params, ctx));
}

/** The whole query of the shared filters: text (scored), the intents of `q`, plus filters. */
export function buildListingQuery(f: Filters, ctx: QueryContext, extra: { filter?: Dsl[] } = {}): Dsl {
  const { filter, must_not } = buildFilterClauses(f, ctx);
  const plan = planOf(f, ctx);
  const intents = intentsOf(f, ctx);
  const text = plan ? planClauses(plan, LISTING_TARGETS, { intentsBind: intents.binds }) : null;
  const bool: Dsl = {};
  if (text?.must.length) bool.must = text.must;
  const should = [...(text?.should ?? []), ...intents.should];
  if (should.length) bool.should = should;
  const allFilters = [...filter, ...intents.filter, ...(text?.filter ?? []), ...(extra.filter ?? [])];
  if (allFilters.length) bool.filter = allFilters;
  if (must_not.length) bool.must_not = must_not;
  if (!Object.keys(bool).length) return { match_all: {} };
  return { bool };
}

/** The words of `q` that only rank (relaxed): the answer says which of them no result has. */
export function relaxedWords(f: Filters, ctx: QueryContext): PlanWord[] {
  const plan = planOf(f, ctx);
  if (!plan) return [];
  const intents = intentsOf(f, ctx);
  return planClauses(plan, LISTING_TARGETS, { intentsBind: intents.binds }).relaxed;
}

/**
 * The words of `q` the answer reports when no result has them: the relaxed ones, and the specific
 * ones (required: when one is missing the answer is empty, and says which).
 */
export function reportedWords(f: Filters, ctx: QueryContext): PlanWord[] {
  const plan = planOf(f, ctx);
  if (!plan) return [];
  return [...relaxedWords(f, ctx), ...plan.words.filter((w) => w.specific && !w.generic && !w.vocabulary.length)];
}

/** One filter per relaxed word, counted over the whole answer: a word no result has counts 0. */
export function relaxedWordsAggregation(words: PlanWord[]): Dsl | null {
  if (!words.length) return null;
  return {
    filters: { filters: Object.fromEntries(words.map((w, i) => [`w${i}`, planWordClause(w, LISTING_TARGETS)])) },
  };
}
