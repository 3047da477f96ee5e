import { AppError } from '@guest/http-kit';
import { convertMinor, type FxTable } from '@guest/catalog';
import type { Dsl } from '@guest/search-engine';
import { boundingBoxFilter, withinRadiusFilter } from '../geo/filters.ts';
import type { Filters } from './params.ts';

/**
 * Pure translation of the shared search filters into OpenSearch query DSL: request in, JSON out.
 * Every route (feed, map, count) builds its query here, so a filter means the same everywhere.
 */

export interface QueryContext {
  /** Rates for price filters given in another currency than a listing's own. */
  fx: FxTable;
  /** Currency of `price_base_minor` in the index, and the default of `currency`. */
  baseCurrency: string;
}

/**
 * Text fields searched by `q`, all languages at once. Per-language fields carry stemming
 * (Russian word forms, English plurals); `text_all` (ICU words, folded) catches everything else.
 * Boosts: the place (district, city) and the name weigh more than the description.
 */
export const TEXT_FIELDS = [
  'place_names.en^4',
  'place_names.ru^4',
  'place_names.th^4',
  'place_names.zh-Hans^4',
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

/**
 * `q` by words: every whitespace-separated word must match in some field (name, description or
 * place, any language); a word that is a stop word in one language's analysis does not count
 * against a listing (zero_terms_query). Small typos are forgiven (AUTO fuzziness, first letter
 * fixed); the whole phrase in the text scores extra. Thai and Chinese are written without spaces:
 * such a run is one "word" whose segments must all match in one field.
 */
export function buildTextQuery(q: string): Dsl | null {
  const words = q
    .split(/\s+/u)
    .map((w) => w.replace(/^[\p{P}\p{S}]+|[\p{P}\p{S}]+$/gu, ''))
    .filter(Boolean)
    .slice(0, 12);
  if (!words.length) return null;
  const should: Dsl[] = [
    // Exact (unfuzzed) words score above typo matches.
    {
      multi_match: { query: words.join(' '), fields: [...TEXT_FIELDS], type: 'best_fields', operator: 'or', boost: 2 },
    },
  ];
  if (words.length > 1) should.push({ match_phrase: { text_all: { query: words.join(' '), slop: 1, boost: 2 } } });
  return { bool: { must: words.map(wordClause), should } };
}

/** Thai and Chinese are segmented by a dictionary: a short form may be the start of one longer word. */
const UNSPACED_SCRIPT = /[\p{Script=Thai}\p{Script=Han}]/u;

/** Place-name fields of the unspaced scripts, searched for a word inside a longer name. */
const INFIX_PLACE_FIELDS = ['place_names.th', 'place_names.zh-Hans'] as const;

/** One word of `q`: in some field, any language, a small typo forgiven. */
export function wordClause(w: string): Dsl {
  const match: Dsl = {
    multi_match: {
      query: w,
      fields: [...TEXT_FIELDS],
      type: 'best_fields',
      operator: 'and',
      tie_breaker: 0.3,
      fuzziness: 'AUTO:3,7',
      prefix_length: 1,
      max_expansions: 20,
      zero_terms_query: 'all',
    },
  };
  if (!UNSPACED_SCRIPT.test(w)) return match;
  // e.g. กรุงเทพ (Bangkok) is the start of the single word กรุงเทพมหานคร.
  const should: Dsl[] = [match, { prefix: { text_all: { value: w } } }];
  // A place name is often one dictionary word with its generic part in front: สมุย (Samui) inside
  // เกาะสมุย (Koh Samui). Place-name fields hold a few hundred distinct words, so a word inside
  // one of them is cheap to look for there (never in titles or descriptions, where it would be
  // slow and noisy). Shorter runs than two Han characters or four Thai letters (about one
  // syllable) would be found inside too many names.
  const bare = w.replace(/[*?\\]/g, '');
  if ([...bare].length >= (/\p{Script=Han}/u.test(bare) ? 2 : 4)) {
    for (const field of INFIX_PLACE_FIELDS) should.push({ wildcard: { [field]: { value: `*${bare}*` } } });
  }
  return { bool: { should, minimum_should_match: 1 } };
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

  // Stay
  if (f.property_type) filter.push(terms('stay.property_type', f.property_type));
  if (f.room_type) filter.push(term('stay.room_type', f.room_type));
  if (f.bedrooms_min !== undefined) filter.push(range('stay.bedrooms', { gte: f.bedrooms_min }));
  if (f.beds_min !== undefined) filter.push(range('stay.beds', { gte: f.beds_min }));
  if (f.bathrooms_min !== undefined) filter.push(range('stay.bathrooms', { gte: f.bathrooms_min }));
  if (f.beach_distance_max !== undefined) filter.push(range('stay.beach_distance_m', { lte: f.beach_distance_max }));
  for (const flag of ['pets_allowed', 'smoking_allowed', 'children_allowed', 'parties_allowed', 'long_stay'] as const) {
    if (f[flag] !== undefined) filter.push(term(`stay.${flag}`, f[flag]));
  }
  // Categories and the experience / service fields
  if (f.category_id) filter.push(terms('category_ids', f.category_id));
  if (f.duration_max !== undefined) filter.push(range('duration_min', { lte: f.duration_max }));
  if (f.languages) filter.push(terms('languages', f.languages));
  if (f.group_size_max !== undefined) filter.push(range('experience.group_size_max', { lte: f.group_size_max }));
  if (f.same_day !== undefined) filter.push(term('same_day', f.same_day));
  if (f.price_unit) filter.push(term('price_unit', f.price_unit));
  // Transport
  if (f.vehicle_kind) filter.push(terms('transport.vehicle_kind', f.vehicle_kind));
  if (f.transmission) filter.push(term('transport.transmission', f.transmission));
  if (f.seats_min !== undefined) filter.push(range('transport.seats', { gte: f.seats_min }));
  // Food
  if (f.food_format) filter.push(term('food.format', f.food_format));
  for (const d of f.diets ?? []) filter.push(term('diets', d));
  if (f.alcohol !== undefined) filter.push(term('food.alcohol', f.alcohol));
  // Everyone
  for (const a of f.amenities ?? []) filter.push(term('amenities', a));
  if (f.instant_book !== undefined) filter.push(term('instant_book', f.instant_book));
  if (f.rating_min !== undefined) filter.push(range('rating_avg', { gte: f.rating_min }));
  return { filter, must_not: mustNot };
}

/** The whole query of the shared filters: text (scored) plus filters. */
export function buildListingQuery(f: Filters, ctx: QueryContext, extra: { filter?: Dsl[] } = {}): Dsl {
  const { filter, must_not } = buildFilterClauses(f, ctx);
  const text = f.q ? buildTextQuery(f.q) : null;
  const bool: Dsl = {};
  if (text) bool.must = [text];
  const allFilters = [...filter, ...(extra.filter ?? [])];
  if (allFilters.length) bool.filter = allFilters;
  if (must_not.length) bool.must_not = must_not;
  if (!Object.keys(bool).length) return { match_all: {} };
  return { bool };
}
