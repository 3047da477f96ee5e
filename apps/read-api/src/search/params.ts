import { z } from 'zod';
import type { Config } from '@guest/config';
import { cursorParam, limitParam, queryBool } from '@guest/http-kit';
import { CONTENT_LANGUAGES, LISTING_KINDS } from '@guest/catalog';
import { CLUSTER_MAX_ZOOM } from '../geo/clusters.ts';
import type { BBox, LatLon } from '../geo/filters.ts';
import { wordyOrAbsent } from '../query-text.ts';

/**
 * The shared filter parameters of `GET /v1/search/listings`, `/v1/search/map` and
 * `/v1/search/count` (spec 4.7): ONE schema, extended by each route with its own parameters.
 * Cross-field rules (radius without near, date order, price order) are in `filterRules`, applied
 * by every route after extending, so a bad combination is a 400 `validation_error` naming the field.
 */

export const SEARCH_KINDS = [...LISTING_KINDS, 'all'] as const;
export const SORTS = ['relevance', 'price_asc', 'price_desc', 'rating', 'distance', 'new'] as const;
export type Sort = (typeof SORTS)[number];
export const PRICE_UNITS = ['night', 'month', 'person', 'hour', 'day', 'trip', 'item'] as const;
export const TRANSMISSIONS = ['automatic', 'manual'] as const;

const CODE_RE = /^[a-z0-9][a-z0-9_-]{0,62}$/;
const code = z.string().regex(CODE_RE, 'must be a lowercase code (a-z, 0-9, _ and -)');

/**
 * Repeated (`a=x&a=y`) or comma-separated (`a=x,y`) query values, as one array. A bad element
 * is reported on the parameter itself (`details.field` = `amenities`, not `amenities.2`).
 */
function list<T extends z.ZodType>(item: T, max = 50) {
  return z.preprocess(
    (v) => {
      const raw = Array.isArray(v) ? v : [v];
      return raw
        .flatMap((s) => (typeof s === 'string' ? s.split(',') : [s]))
        .map((s) => (typeof s === 'string' ? s.trim() : s))
        .filter((s) => s !== '');
    },
    z
      .array(z.string())
      .min(1)
      .max(max)
      .transform((values, ctx) => {
        const out: Array<z.output<T>> = [];
        for (const v of values) {
          const r = item.safeParse(v);
          if (!r.success) {
            ctx.addIssue({ code: 'custom', message: `"${v}": ${r.error.issues[0]?.message ?? 'invalid'}` });
            return z.NEVER;
          }
          out.push(r.data);
        }
        return out;
      }),
  );
}

const int = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine((v) => {
    const d = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v);
  }, 'is not a calendar date');

const NUM = String.raw`\s*(-?\d+(?:\.\d+)?)\s*`;

const bbox = z
  .string()
  .transform((v, ctx): BBox => {
    const m = new RegExp(`^${NUM},${NUM},${NUM},${NUM}$`).exec(v);
    const fail = (message: string) => {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    };
    if (!m) return fail('must be minLon,minLat,maxLon,maxLat (four numbers)');
    const [minLon, minLat, maxLon, maxLat] = m.slice(1).map(Number) as [number, number, number, number];
    if ([minLon, maxLon].some((x) => x < -180 || x > 180)) return fail('longitudes must be within -180..180');
    if ([minLat, maxLat].some((x) => x < -90 || x > 90)) return fail('latitudes must be within -90..90');
    if (minLat > maxLat) return fail('minLat must not be greater than maxLat');
    // minLon > maxLon is a box that crosses the antimeridian: allowed.
    return { minLon, minLat, maxLon, maxLat };
  })
  .meta({
    description:
      '`minLon,minLat,maxLon,maxLat`; minLon > maxLon crosses the antimeridian. A `city_only` listing (no point) ' +
      "is inside when its place's centre is; it is still left off the map.",
  });

const near = z
  .string()
  .transform((v, ctx): LatLon => {
    const m = new RegExp(`^${NUM},${NUM}$`).exec(v);
    const fail = (message: string) => {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    };
    if (!m) return fail('must be lat,lon (two numbers)');
    const [lat, lon] = m.slice(1).map(Number) as [number, number];
    if (lat < -90 || lat > 90) return fail('lat must be within -90..90');
    if (lon < -180 || lon > 180) return fail('lon must be within -180..180');
    return { lat, lon };
  })
  .meta({
    description:
      '`lat,lon`: the point distances are measured from (`distance_m`, sort `distance`). Alone it filters ' +
      'nothing (as in the events routes); with `radius_m`, only objects within it.',
  });

export const SearchFilters = z
  .object({
    kind: z.enum(SEARCH_KINDS).default('all').meta({ description: 'One kind, or `all` (the default).' }),
    bbox: bbox.optional(),
    near: near.optional(),
    radius_m: int(1, 20_000_000)
      .optional()
      .meta({
        description:
          "Only objects within this many metres of `near` (needs `near`); a `city_only` listing by its place's centre. " +
          'With sort `distance`, `city_only` listings come last.',
      }),
    q: z
      .string()
      .max(200)
      .transform(wordyOrAbsent)
      .optional()
      .meta({
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
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, 'must be a 3-letter currency code')
      .optional()
      .meta({
        description: 'Currency of `price_min`/`price_max` (default: the base currency); converted through FX rates.',
      }),
    property_type: list(code).optional().meta({ description: 'Stays: any of these property types.' }),
    room_type: code.optional().meta({ description: 'Stays.' }),
    bedrooms_min: int(0, 100).optional().meta({ description: 'Stays.' }),
    beds_min: int(0, 200).optional().meta({ description: 'Stays.' }),
    bathrooms_min: int(0, 100).optional().meta({ description: 'Stays.' }),
    beach_distance_max: int(0, 1_000_000).optional().meta({ description: 'Stays: metres to the beach at most.' }),
    pets_allowed: queryBool.optional().meta({ description: 'Stays: the flag must equal this value.' }),
    smoking_allowed: queryBool.optional().meta({ description: 'Stays: the flag must equal this value.' }),
    children_allowed: queryBool.optional().meta({ description: 'Stays: the flag must equal this value.' }),
    parties_allowed: queryBool.optional().meta({ description: 'Stays: the flag must equal this value.' }),
    long_stay: queryBool.optional().meta({ description: 'Stays: the flag must equal this value.' }),
    category_id: list(int(1, 2_147_483_647)).optional().meta({ description: 'Any of these categories.' }),
    duration_max: int(1, 100_000).optional().meta({ description: 'Experiences and services: minutes at most.' }),
    languages: list(z.enum(CONTENT_LANGUAGES), 4)
      .optional()
      .meta({ description: 'Languages the host speaks or the activity runs in: any matches.' }),
    group_size_max: int(1, 10_000).optional().meta({ description: 'Experiences: group size at most (small groups).' }),
    same_day: queryBool.optional().meta({ description: 'Experiences and services: bookable for the same day.' }),
    price_unit: z.enum(PRICE_UNITS).optional(),
    vehicle_kind: list(code).optional().meta({ description: 'Transport: any of these vehicle kinds.' }),
    transmission: z.enum(TRANSMISSIONS).optional().meta({ description: 'Transport.' }),
    seats_min: int(1, 100).optional().meta({ description: 'Transport.' }),
    food_format: code.optional().meta({ description: 'Food.' }),
    diets: list(code).optional().meta({ description: 'Food: menu marks; all must match.' }),
    alcohol: queryBool.optional().meta({ description: 'Food: the flag must equal this value.' }),
    amenities: list(code).optional().meta({ description: 'Amenity codes; all must match.' }),
    instant_book: queryBool.optional().meta({ description: 'The flag must equal this value.' }),
    rating_min: z.coerce.number().min(0).max(5).optional().meta({ description: 'Average rating at least this.' }),
  })
  .meta({ id: 'SearchFilters' });

export type SearchFiltersInput = z.input<typeof SearchFilters>;
export type Filters = z.output<typeof SearchFilters>;

/** Cross-field rules of the shared filters (and of `sort` when the route has one). */
export function filterRules(f: Partial<Filters> & { sort?: Sort }, ctx: z.RefinementCtx): void {
  const issue = (field: string, message: string) => ctx.addIssue({ code: 'custom', path: [field], message });
  if (f.radius_m !== undefined && !f.near) issue('radius_m', 'radius_m needs near');
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
    sort: z.enum(SORTS).default('relevance').meta({
      description:
        '`relevance` (with `q`: best match; without: best rated), `price_asc`, `price_desc`, `rating`, `distance` (needs `near`), `new`.',
    }),
    limit: limitParam(config.SEARCH_LIMIT_DEFAULT, config.SEARCH_LIMIT_MAX),
    cursor: cursorParam,
  }).superRefine(filterRules);
}

/** Query of `/v1/search/map`: the shared filters and the zoom. */
export const MapParams = SearchFilters.extend({
  zoom: z.coerce
    .number()
    .int()
    .min(0)
    .max(22)
    .meta({ description: `Map zoom 0 to 22: up to ${CLUSTER_MAX_ZOOM} clusters, beyond that points.` }),
}).superRefine(filterRules);

/** Query of `/v1/search/count`: the shared filters. */
export const CountParams = SearchFilters.superRefine(filterRules);

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
