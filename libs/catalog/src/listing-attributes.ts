import { z } from 'zod';
import { CONTENT_LANGUAGES } from './languages.ts';
import { LISTING_KINDS, PRICE_UNITS, TRANSMISSIONS, type ListingKind } from './vocabulary.ts';

/**
 * The attributes of a listing that guests filter by, each declared once: its name, how its value
 * is written, which kinds have it, where it comes from (a column), how the engine indexes it, the
 * filter parameter that selects by it and whether its values are offered as a facet. What the
 * catalog import checks and writes, what the indexer projects, the listing document's type, the
 * mapping check, the read API's filter parameters (and so the OpenAPI document and the SDK's
 * filter table) and the query clauses all follow from this table.
 *
 * An attribute of a kind's block (`kinds`, `column`) is the field `<kind>.<name>` of the catalog
 * record, the column `column` of `listing_<kind>` and the document field `<kind>.<name>` (and
 * `<name>` at the top of the document when `shared`). An attribute of the listing itself
 * (`source`) is written and projected with the listing's own row; the table says where it is.
 *
 * A new filter on an attribute that is here: a `filter` on it, and a row in the filter test
 * (test/read-api/search-filters.test.ts). A new attribute of a block: its column (the table and a
 * migration), an entry here, its field in mappings/listings.json, and the rows of the tests.
 */

/** How a value is written: the record's check and the filter parameter's grammar follow from it. */
export type Value =
  | { type: 'int'; min: number; max?: number }
  | { type: 'number'; min: number; max: number }
  | { type: 'bool' }
  | { type: 'code' }
  | { type: 'enum'; values: readonly [string, ...string[]] };

export const value = {
  int: (min: number, max?: number): { type: 'int'; min: number; max?: number } =>
    max === undefined ? { type: 'int', min } : { type: 'int', min, max },
  number: (min: number, max: number) => ({ type: 'number', min, max }) as const,
  bool: { type: 'bool' } as const,
  code: { type: 'code' } as const,
  oneOf: <const E extends readonly [string, ...string[]]>(values: E) => ({ type: 'enum', values }) as const,
};

/** The field type of the document in the listings index (mappings/listings.json). */
export type IndexType = 'keyword' | 'short' | 'integer' | 'float' | 'boolean';

/**
 * `min`: the value is at least the parameter; `max`: at most; `is`: equal; `any`: one of the
 * parameter's values; `all`: every one of them (a list attribute).
 */
export type FilterOp = 'min' | 'max' | 'is' | 'any' | 'all';

export interface FilterSpec {
  /** The query parameter of the search routes. */
  param: string;
  op: FilterOp;
  /** The highest value the parameter takes where the attribute has no bound of its own. */
  upTo?: number;
  /** The most values a list parameter takes (default 50). */
  maxItems?: number;
  /** The kinds the filter is offered for (a client shows it for these); default the attribute's kinds. */
  kinds?: readonly ListingKind[];
  /** What the parameter selects, for the OpenAPI document. */
  description: string;
}

interface AttributeBase {
  value: Value;
  /** A list of values (`diets`, `amenities`). */
  list?: true;
  /** May be left out of a record: null in the document. */
  optional?: true;
  index: IndexType;
  filter?: FilterSpec;
  /** Its values, with how many listings have each, are listed by `/v1/search/filter-values` under the filter's name. */
  facet?: true;
  /**
   * Where the interface dictionary names its values: `listing.vehicle` names `scooter` with
   * `listing.vehicle.scooter`. The attribute itself is named by `listing.attribute.<name>`.
   */
  valueNames?: string;
}

export interface BlockAttribute extends AttributeBase {
  kinds: readonly [ListingKind, ...ListingKind[]];
  /** The column of `listing_<kind>` (its drizzle property). */
  column: string;
  /** Also a top-level field of the document: one field to filter the kinds that have it by. */
  shared?: true;
}

export interface OwnAttribute extends AttributeBase {
  kinds?: undefined;
  /** Where the listing keeps it: `listings.<column>` or a table of its own. */
  source: { table: 'listings'; column: string } | { table: 'listing_amenities' | 'listing_categories' };
}

export type Attribute = BlockAttribute | OwnAttribute;

const STAY_FLAG = 'Stays: the flag must equal this value.';

/** In the order the filter parameters are documented and their clauses built. */
export const LISTING_ATTRIBUTES = {
  property_type: {
    valueNames: 'listing.property_type',
    kinds: ['stay'],
    column: 'propertyType',
    value: value.code,
    index: 'keyword',
    filter: { param: 'property_type', op: 'any', description: 'Stays: any of these property types.' },
    facet: true,
  },
  room_type: {
    valueNames: 'listing.room_type',
    kinds: ['stay'],
    column: 'roomType',
    value: value.code,
    index: 'keyword',
    filter: { param: 'room_type', op: 'is', description: 'Stays.' },
    facet: true,
  },
  bedrooms: {
    kinds: ['stay'],
    column: 'bedrooms',
    value: value.int(0, 100),
    index: 'short',
    filter: { param: 'bedrooms_min', op: 'min', description: 'Stays.' },
  },
  beds: {
    kinds: ['stay'],
    column: 'beds',
    value: value.int(0, 200),
    index: 'short',
    filter: { param: 'beds_min', op: 'min', description: 'Stays.' },
  },
  bathrooms: {
    kinds: ['stay'],
    column: 'bathrooms',
    value: value.int(0, 100),
    index: 'short',
    filter: { param: 'bathrooms_min', op: 'min', description: 'Stays.' },
  },
  // Filtered by `guests`, together with the group size of experiences.
  max_guests: { kinds: ['stay'], column: 'maxGuests', value: value.int(1, 500), index: 'short' },
  beach_distance_m: {
    kinds: ['stay'],
    column: 'beachDistanceM',
    value: value.int(0),
    optional: true,
    index: 'integer',
    filter: {
      param: 'beach_distance_max',
      op: 'max',
      upTo: 1_000_000,
      description: 'Stays: metres to the beach at most.',
    },
  },
  pets_allowed: {
    kinds: ['stay'],
    column: 'petsAllowed',
    value: value.bool,
    index: 'boolean',
    filter: { param: 'pets_allowed', op: 'is', description: STAY_FLAG },
  },
  smoking_allowed: {
    kinds: ['stay'],
    column: 'smokingAllowed',
    value: value.bool,
    index: 'boolean',
    filter: { param: 'smoking_allowed', op: 'is', description: STAY_FLAG },
  },
  children_allowed: {
    kinds: ['stay'],
    column: 'childrenAllowed',
    value: value.bool,
    index: 'boolean',
    filter: { param: 'children_allowed', op: 'is', description: STAY_FLAG },
  },
  parties_allowed: {
    kinds: ['stay'],
    column: 'partiesAllowed',
    value: value.bool,
    index: 'boolean',
    filter: { param: 'parties_allowed', op: 'is', description: STAY_FLAG },
  },
  long_stay: {
    kinds: ['stay'],
    column: 'longStay',
    value: value.bool,
    index: 'boolean',
    filter: { param: 'long_stay', op: 'is', description: STAY_FLAG },
  },
  category_ids: {
    source: { table: 'listing_categories' },
    value: value.int(1, 2_147_483_647),
    list: true,
    index: 'integer',
    filter: {
      param: 'category_id',
      op: 'any',
      kinds: ['experience', 'service', 'transport', 'food'],
      description: 'Any of these categories.',
    },
  },
  duration_min: {
    kinds: ['experience', 'service'],
    column: 'durationMin',
    value: value.int(1),
    index: 'integer',
    shared: true,
    filter: {
      param: 'duration_max',
      op: 'max',
      upTo: 100_000,
      description: 'Experiences and services: minutes at most.',
    },
  },
  languages: {
    source: { table: 'listings', column: 'languages' },
    value: value.oneOf(CONTENT_LANGUAGES),
    list: true,
    index: 'keyword',
    filter: {
      param: 'languages',
      op: 'any',
      maxItems: CONTENT_LANGUAGES.length,
      kinds: ['experience', 'service'],
      description: 'Languages the host speaks or the activity runs in: any matches.',
    },
  },
  group_size_max: {
    kinds: ['experience'],
    column: 'groupSizeMax',
    value: value.int(1),
    index: 'integer',
    filter: {
      param: 'group_size_max',
      op: 'max',
      upTo: 10_000,
      description: 'Experiences: group size at most (small groups).',
    },
  },
  same_day: {
    kinds: ['experience', 'service'],
    column: 'sameDay',
    value: value.bool,
    index: 'boolean',
    shared: true,
    filter: { param: 'same_day', op: 'is', description: 'Experiences and services: bookable for the same day.' },
  },
  price_unit: {
    source: { table: 'listings', column: 'priceUnit' },
    value: value.oneOf(PRICE_UNITS),
    index: 'keyword',
    filter: {
      param: 'price_unit',
      op: 'is',
      description:
        'What the price is for (night, month, person …): only listings priced per this unit. A price filter ' +
        '(`price_min`, `price_max`) compares prices of one unit, so it is sent with this.',
    },
    facet: true,
  },
  vehicle_kind: {
    valueNames: 'listing.vehicle',
    kinds: ['transport'],
    column: 'vehicleKind',
    value: value.code,
    index: 'keyword',
    filter: { param: 'vehicle_kind', op: 'any', description: 'Transport: any of these vehicle kinds.' },
    facet: true,
  },
  transmission: {
    valueNames: 'listing.transmission',
    kinds: ['transport'],
    column: 'transmission',
    value: value.oneOf(TRANSMISSIONS),
    index: 'keyword',
    filter: { param: 'transmission', op: 'is', description: 'Transport.' },
    facet: true,
  },
  seats: {
    kinds: ['transport'],
    column: 'seats',
    value: value.int(1, 100),
    index: 'short',
    filter: { param: 'seats_min', op: 'min', description: 'Transport.' },
  },
  format: {
    valueNames: 'listing.food_format',
    kinds: ['food'],
    column: 'format',
    value: value.code,
    index: 'keyword',
    filter: { param: 'food_format', op: 'is', description: 'Food.' },
    facet: true,
  },
  diets: {
    valueNames: 'listing.diet',
    kinds: ['food'],
    column: 'diets',
    value: value.code,
    list: true,
    index: 'keyword',
    shared: true,
    filter: { param: 'diets', op: 'all', description: 'Food: menu marks; all must match.' },
    facet: true,
  },
  alcohol: {
    kinds: ['food'],
    column: 'alcohol',
    value: value.bool,
    index: 'boolean',
    filter: { param: 'alcohol', op: 'is', description: 'Food: the flag must equal this value.' },
  },
  amenities: {
    source: { table: 'listing_amenities' },
    value: value.code,
    list: true,
    index: 'keyword',
    filter: {
      param: 'amenities',
      op: 'all',
      kinds: ['stay', 'experience', 'service'],
      description: 'Amenity codes; all must match.',
    },
  },
  instant_book: {
    source: { table: 'listings', column: 'instantBook' },
    value: value.bool,
    index: 'boolean',
    filter: { param: 'instant_book', op: 'is', description: 'The flag must equal this value.' },
  },
  rating_avg: {
    source: { table: 'listings', column: 'ratingAvg' },
    value: value.number(0, 5),
    optional: true,
    index: 'float',
    filter: { param: 'rating_min', op: 'min', description: 'Average rating at least this.' },
  },
  rating_count: {
    source: { table: 'listings', column: 'ratingCount' },
    value: value.int(0),
    index: 'integer',
    filter: {
      param: 'rating_count_min',
      op: 'min',
      upTo: 1_000_000,
      description: 'Rated by at least this many guests: an average that many agree on.',
    },
  },
} as const satisfies Record<string, Attribute>;

export type ListingAttributes = typeof LISTING_ATTRIBUTES;
export type AttributeName = keyof ListingAttributes;

type ValueOf<V> = V extends { type: 'int' | 'number' }
  ? number
  : V extends { type: 'bool' }
    ? boolean
    : V extends { type: 'enum'; values: infer E extends readonly string[] }
      ? E[number]
      : string;
/** The value of an attribute (an array for a list attribute). */
export type AttributeValue<A> = A extends { value: infer V }
  ? A extends { list: true }
    ? ValueOf<V>[]
    : ValueOf<V>
  : never;
/** As the document holds it: a value that may be left out is null there. */
type DocumentValue<A> = A extends { optional: true } ? AttributeValue<A> | null : AttributeValue<A>;

/** The attributes of a kind's block. */
export type BlockAttributeName<K extends ListingKind> = {
  [N in AttributeName]: ListingAttributes[N] extends { kinds: readonly (infer L)[] }
    ? K extends L
      ? N
      : never
    : never;
}[AttributeName];
/** The block of a kind as the document (and the indexer's source) holds it: `stay: { bedrooms: 2, … }`. */
export type BlockDocument<K extends ListingKind> = {
  [N in BlockAttributeName<K>]: DocumentValue<ListingAttributes[N]>;
};

type SharedName = {
  [N in AttributeName]: ListingAttributes[N] extends { shared: true } ? N : never;
}[AttributeName];
/** The top-level fields of the document that the kinds having them share (`duration_min`, `diets`). */
export type SharedDocument = {
  [N in SharedName]: ListingAttributes[N] extends { list: true }
    ? AttributeValue<ListingAttributes[N]>
    : AttributeValue<ListingAttributes[N]> | null;
};

const entries = Object.entries(LISTING_ATTRIBUTES) as Array<[AttributeName, Attribute]>;

/** The attributes of a kind's block, in table order. */
export function blockAttributes(kind: ListingKind): Array<[string, BlockAttribute]> {
  return entries.filter((e): e is [AttributeName, BlockAttribute] => e[1].kinds?.includes(kind) ?? false);
}

/** The schema of a value in the catalog interchange format. */
function recordValue(a: Attribute): z.ZodType {
  const v = a.value;
  let one: z.ZodType;
  switch (v.type) {
    case 'int': {
      const n = z.number().int().min(v.min);
      one = v.max === undefined ? n : n.max(v.max);
      break;
    }
    case 'number':
      one = z.number().min(v.min).max(v.max);
      break;
    case 'bool':
      one = z.boolean();
      break;
    case 'code':
      one = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'must be a lowercase code');
      break;
    case 'enum':
      one = z.enum(v.values);
      break;
  }
  return a.list ? z.array(one) : one;
}

type RecordField<A> = A extends { optional: true }
  ? z.ZodOptional<z.ZodNullable<z.ZodType<AttributeValue<A>>>>
  : z.ZodType<AttributeValue<A>>;

/** A value of the listing's own attribute `name` as the catalog record writes it (`rating.avg`, `instant_book`…). */
export function attributeRecordValue<N extends AttributeName>(name: N): RecordField<ListingAttributes[N]> {
  const a: Attribute = LISTING_ATTRIBUTES[name];
  const one = recordValue(a);
  return (a.optional ? one.nullable().optional() : one) as RecordField<ListingAttributes[N]>;
}

/** The schema of a kind's block in a catalog record (`"stay": {…}`), every attribute of the block in it. */
export function blockRecordSchema<K extends ListingKind>(kind: K) {
  const shape = Object.fromEntries(
    blockAttributes(kind).map(([name]) => [name, attributeRecordValue(name as AttributeName)]),
  );
  return z.strictObject(shape as { [N in BlockAttributeName<K>]: RecordField<ListingAttributes[N]> });
}

/** The document field an attribute's filter reads: a shared or the listing's own at the top, else its block's. */
export function documentField(name: AttributeName): string {
  const a: Attribute = LISTING_ATTRIBUTES[name];
  return a.kinds && !a.shared ? `${a.kinds[0]}.${name}` : name;
}

/** Every document field an attribute fills, with the index type it needs. */
export function documentFields(): Array<{ field: string; index: IndexType; attribute: AttributeName }> {
  return entries.flatMap(([name, a]) => {
    const own = a.kinds ? a.kinds.map((k) => `${k}.${name}`) : [name];
    const shared = a.kinds && a.shared ? [name] : [];
    return [...own, ...shared].map((field) => ({ field, index: a.index, attribute: name }));
  });
}

export interface ListingFilter {
  attribute: AttributeName;
  param: string;
  op: FilterOp;
  /** The document field it reads. */
  field: string;
  value: Value;
  list: boolean;
  upTo: number | undefined;
  maxItems: number;
  kinds: readonly ListingKind[];
  description: string;
  facet: boolean;
}

/** The attribute filters of the search, in the order of the table. */
export const LISTING_FILTERS: readonly ListingFilter[] = entries.flatMap(([name, a]) =>
  a.filter
    ? [
        {
          attribute: name,
          param: a.filter.param,
          op: a.filter.op,
          field: documentField(name),
          value: a.value,
          list: a.list === true,
          upTo: a.filter.upTo,
          maxItems: a.filter.maxItems ?? 50,
          kinds: a.filter.kinds ?? a.kinds ?? LISTING_KINDS,
          description: a.filter.description,
          facet: a.facet === true,
        },
      ]
    : [],
);

type Filtered = {
  [N in AttributeName]: ListingAttributes[N] extends { filter: { param: string } } ? N : never;
}[AttributeName];
/** What the filter parameter of an attribute holds once parsed: the list ops take several values. */
type FilterValue<A> = A extends { filter: { op: 'any' | 'all' } }
  ? A extends { value: infer V }
    ? ValueOf<V>[]
    : never
  : A extends { value: infer V }
    ? ValueOf<V>
    : never;
/** The attribute filter parameters, parsed: `{ bedrooms_min?: number, diets?: string[], … }`. */
export type AttributeFilterValues = {
  [N in Filtered as ListingAttributes[N]['filter']['param']]?: FilterValue<ListingAttributes[N]> | undefined;
};
/** The name of an attribute filter parameter. */
export type AttributeFilterParam = keyof AttributeFilterValues;

/** The filter parameters whose values are offered with counts (`/v1/search/filter-values`). */
export type FacetParam = {
  [N in AttributeName]: ListingAttributes[N] extends { facet: true; filter: { param: infer P } } ? P : never;
}[AttributeName];

/** The facets, in the order of the table: the parameter and the document field it counts. */
export const LISTING_FACETS = LISTING_FILTERS.filter((f) => f.facet).map((f) => ({
  param: f.param as FacetParam,
  field: f.field,
}));
