import { z } from 'zod';
import type { Config } from '@guest/config';
import { cursorParam, limitParam, queryBool } from '@guest/http-kit';
import {
  LISTING_FILTERS,
  LISTING_KINDS,
  type AttributeFilterParam,
  type AttributeFilterValues,
  type ListingFilter,
} from '@guest/catalog';
import { CLUSTER_MAX_ZOOM } from '../geo/clusters.ts';
import { wordyOrAbsent } from '../query-text.ts';
import {
  bbox,
  code,
  currency,
  geoRules,
  int,
  isoDate,
  list,
  near,
  radiusM,
  searchText,
  zoom,
} from '../query-grammar.ts';

/**
 * The shared filter parameters of `GET /v1/search/listings`, `/v1/search/map` and
 * `/v1/search/count` (spec 4.7): ONE schema, extended by each route with its own parameters.
 * Values are written as the read API's grammar says (`query-grammar.ts`). Cross-field rules
 * (radius without near, date order, price order) are in `filterRules`, applied by every route
 * after extending, so a bad combination is a 400 `validation_error` naming the field.
 */

export const SEARCH_KINDS = [...LISTING_KINDS, 'all'] as const;
export const SORTS = ['relevance', 'price_asc', 'price_desc', 'rating', 'distance', 'new'] as const;
export type Sort = (typeof SORTS)[number];

/** The parameter of one attribute filter, in the grammar of the read API. */
function attributeFilter(f: ListingFilter): z.ZodType {
  const v = f.value;
  let item: z.ZodType;
  switch (v.type) {
    case 'int':
      item = int(v.min, f.upTo ?? v.max ?? Number.MAX_SAFE_INTEGER);
      break;
    case 'number':
      item = z.coerce
        .number()
        .min(v.min)
        .max(f.upTo ?? v.max);
      break;
    case 'bool':
      item = queryBool;
      break;
    case 'code':
      item = code;
      break;
    case 'enum':
      item = z.enum(v.values);
      break;
  }
  const param = f.op === 'any' || f.op === 'all' ? list(item, f.maxItems) : item;
  // The kinds it is offered for, unless all: a client shows the filter with those (the SDK's filter table).
  const kinds = f.kinds.length < LISTING_KINDS.length ? { 'x-listing-kinds': f.kinds } : {};
  return param.optional().meta({ description: f.description, ...kinds });
}

/** The filters of libs/catalog/src/listing-attributes.ts, one parameter each. */
const attributeFilters = Object.fromEntries(LISTING_FILTERS.map((f) => [f.param, attributeFilter(f)])) as {
  [P in AttributeFilterParam]-?: z.ZodOptional<z.ZodType<Exclude<AttributeFilterValues[P], undefined>, unknown>>;
};

export const SearchFilters = z
  .object({
    kind: z.enum(SEARCH_KINDS).default('all').meta({ description: 'One kind, or `all` (the default).' }),
    bbox: bbox.optional().meta({
      description:
        '`minLon,minLat,maxLon,maxLat`; minLon > maxLon crosses the antimeridian. A `city_only` listing (no point) ' +
        "is inside when its place's centre is; it is still left off the map.",
    }),
    near: near.optional().meta({
      description:
        '`lat,lon`: the point distances are measured from (`distance_m`, sort `distance`). Alone it filters ' +
        'nothing (as in the events routes); with `radius_m`, only objects within it.',
    }),
    radius_m: radiusM.optional().meta({
      description:
        "Only objects within this many metres of `near` (needs `near`); a `city_only` listing by its place's centre. " +
        'With sort `distance`, `city_only` listings come last.',
    }),
    q: searchText.optional().meta({
      description:
        'Free text, by words, in any of the four languages at once (and mixed): the district or city (there is no ' +
        'place_id filter: pass it here; one typo forgiven), what is wanted (a category, an amenity, a property ' +
        'type: matched by its code whatever language a listing is written in, or by its name and description) and ' +
        'intents that stand for the filters below ("pet friendly", "near the beach", "monthly", "with kids", ' +
        '"2 bedrooms", "for 4 people", "Chinese speaking", "cheap" and "best" as orders, "near me" as the distance ' +
        'from `near`). Filters sent as parameters win over intents. Words that select nothing only rank (see ' +
        '`unmatched_terms`). A `q` without any letter or digit (empty, spaces, punctuation only) is treated as absent.',
    }),
    date_from: isoDate
      .optional()
      .meta({ description: 'First day (check-in); available = no blocked day in the range.' }),
    date_to: isoDate
      .optional()
      .meta({ description: 'Day after the last (check-out, exclusive); without it, the one day `date_from`.' }),
    guests: int(1, 500).optional().meta({
      description: 'Stays: `max_guests` at least this; experiences: group size at least this; other kinds unaffected.',
    }),
    price_min: int(0, Number.MAX_SAFE_INTEGER).optional().meta({ description: 'Minor units of `currency`.' }),
    price_max: int(0, Number.MAX_SAFE_INTEGER).optional().meta({ description: 'Minor units of `currency`.' }),
    currency: currency.optional().meta({
      description: 'Currency of `price_min`/`price_max` (default: the base currency); converted through FX rates.',
    }),
    ...attributeFilters,
  })
  .meta({ id: 'SearchFilters' });

export type SearchFiltersInput = z.input<typeof SearchFilters>;
export type Filters = z.output<typeof SearchFilters>;

/** Cross-field rules of the shared filters (and of `sort` when the route has one). */
export function filterRules(f: Partial<Filters> & { sort?: Sort }, ctx: z.RefinementCtx): void {
  const issue = (field: string, message: string) => ctx.addIssue({ code: 'custom', path: [field], message });
  geoRules(f, ctx);
  if (f.date_to && !f.date_from) issue('date_to', 'date_to needs date_from');
  if (f.date_to && f.date_from && f.date_to < f.date_from) issue('date_to', 'date_to must not be before date_from');
  if (f.price_min !== undefined && f.price_max !== undefined && f.price_max < f.price_min) {
    issue('price_max', 'price_max must not be below price_min');
  }
  if (f.sort === 'distance' && !f.near) issue('sort', 'sort=distance needs near');
}

/** Query of `/v1/search/listings`: the shared filters, the sort and the page. */
export function feedParams(config: Pick<Config, 'SEARCH_LIMIT_DEFAULT' | 'SEARCH_LIMIT_MAX'>) {
  return SearchFilters.extend({
    sort: z.enum(SORTS).default('relevance').meta({ description: SORT_DESCRIPTION }),
    limit: limitParam(config.SEARCH_LIMIT_DEFAULT, config.SEARCH_LIMIT_MAX),
    cursor: cursorParam,
  }).superRefine(filterRules);
}

const SORT_DESCRIPTION =
  '`relevance` (with `q`: best match; without: best rated), `price_asc`, `price_desc`, `rating`, `distance` (needs `near`), `new`.';

/**
 * The feed's own parameters on the routes that take the feed's query string (map, count): the
 * same link works for all three, so they are declared (and checked alike: `sort=distance` still
 * needs `near`) and change nothing there.
 */
function feedParity(config: Pick<Config, 'SEARCH_LIMIT_DEFAULT' | 'SEARCH_LIMIT_MAX'>) {
  const parity =
    'Accepted for parity with the feed (the same query string works for both); it does not change this answer.';
  return {
    sort: z
      .enum(SORTS)
      .optional()
      .meta({ description: `The feed's order: ${SORT_DESCRIPTION} ${parity}` }),
    limit: limitParam(config.SEARCH_LIMIT_DEFAULT, config.SEARCH_LIMIT_MAX)
      .optional()
      .meta({ description: `The feed's page size, 1 to ${config.SEARCH_LIMIT_MAX}. ${parity}` }),
    cursor: cursorParam.meta({ description: `A cursor of the feed. ${parity}` }),
  };
}

/** Query of `/v1/search/map`: the shared filters and the zoom. */
export function mapParams(config: Pick<Config, 'SEARCH_LIMIT_DEFAULT' | 'SEARCH_LIMIT_MAX'>) {
  return SearchFilters.extend({
    zoom: zoom.meta({ description: `Map zoom 0 to 22: up to ${CLUSTER_MAX_ZOOM} clusters, beyond that points.` }),
    ...feedParity(config),
  }).superRefine(filterRules);
}

/** Query of `/v1/search/count`: the shared filters. */
export function countParams(config: Pick<Config, 'SEARCH_LIMIT_DEFAULT' | 'SEARCH_LIMIT_MAX'>) {
  return SearchFilters.extend(feedParity(config)).superRefine(filterRules);
}

/** `lang` is every route's language parameter; anything else is refused by name. */
const PRICE_RANGE_ACCEPTED = new Set(['kind', 'currency', 'lang']);

/** Query of `/v1/search/price-range`: only `kind` and `currency`; other filters are refused by name. */
export const PriceRangeParams = z
  .looseObject({
    kind: z.enum(SEARCH_KINDS).optional().meta({ description: 'One kind, or `all`; without it, all five.' }),
    currency: SearchFilters.shape.currency.meta({
      description: 'Currency of the answer (default: the base currency); converted through FX rates.',
    }),
  })
  .superRefine((v, ctx) => {
    for (const key of Object.keys(v)) {
      if (!PRICE_RANGE_ACCEPTED.has(key)) {
        ctx.addIssue({
          code: 'custom',
          path: [key],
          message: 'not accepted here: the price range takes only kind and currency',
        });
      }
    }
  });

/** Query of `/v1/search/filter-values`: the scope (one kind, or all five). */
export const FilterValuesParams = z.object({
  kind: z.enum(SEARCH_KINDS).optional().meta({ description: 'One kind, or `all`; without it, all five.' }),
});

/** Query of `/v1/search/suggest`: what the guest has typed, and optionally one kind. */
export const SuggestParams = z.object({
  q: z
    .string()
    // Without a word it is absent, as on the other routes; here that means missing (400 on q).
    .transform((v) => wordyOrAbsent(v) ?? '')
    .pipe(z.string().min(1).max(100))
    .meta({
      description:
        'What the guest has typed: names in any of the four languages, prefixes, small typos. Required; a `q` ' +
        'without any letter or digit (punctuation only) counts as missing.',
    }),
  kind: z
    .enum(SEARCH_KINDS)
    .optional()
    // `all` is accepted as on every other search route, and means no kind.
    .transform((k) => (k === 'all' ? undefined : k))
    .meta({
      description:
        'Only listings of this kind, and only places that hold listings of this kind; `all` (or none) for every kind.',
    }),
});
