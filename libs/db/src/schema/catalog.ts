import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  customType,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgSequence,
  pgTable,
  primaryKey,
  real,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import {
  CATEGORY_KINDS,
  EVENT_ENTRIES,
  LISTING_KINDS,
  LOCATION_MODES,
  PLACE_LEVELS,
  PRICE_UNITS,
  RECORD_STATUSES,
  SCHEDULE_KINDS,
} from '@guest/catalog';

/** Texts keyed by language code (`en`, `ru`, `th`, `zh-Hans`); any language may be missing. */
export type LocalizedText = Partial<Record<string, string>>;

/**
 * One counter for every catalog write. Its values are the external versions of the index
 * documents, so a later write always carries a larger number than any earlier one, whatever
 * table it touched, and a stale delivery can be refused by the engine.
 */
export const catalogVersionSeq = pgSequence('catalog_version_seq', { startWith: 1 });

// Every catalog row carries the hash of the imported record: a second import of unchanged
// content is recognised and neither bumps the version nor writes an outbox row.
const tracked = {
  contentHash: text('content_hash').notNull(),
  version: bigint('version', { mode: 'number' }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

export const currencies = pgTable('currencies', {
  code: text('code').primaryKey(),
  name: jsonb('name').$type<LocalizedText>().notNull(),
  symbol: text('symbol'),
  minorUnits: smallint('minor_units').notNull(),
  ...tracked,
});

export const fxRates = pgTable(
  'fx_rates',
  {
    base: text('base').notNull(),
    date: date('date').notNull(),
    source: text('source'),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }),
    rates: jsonb('rates').$type<Record<string, number>>().notNull(),
    ...tracked,
  },
  (t) => [primaryKey({ columns: [t.base, t.date] })],
);

export const places = pgTable(
  'places',
  {
    id: serial('id').primaryKey(),
    externalId: text('external_id').notNull(),
    parentId: integer('parent_id'),
    level: text('level', { enum: PLACE_LEVELS }).notNull(),
    slug: text('slug').notNull(),
    name: jsonb('name').$type<LocalizedText>().notNull(),
    timezone: text('timezone'),
    currency: text('currency'),
    centerLat: doublePrecision('center_lat'),
    centerLon: doublePrecision('center_lon'),
    popular: boolean('popular').notNull().default(false),
    ...tracked,
  },
  (t) => [
    uniqueIndex('places_external_id_uq').on(t.externalId),
    uniqueIndex('places_slug_uq').on(t.slug),
    index('places_parent_idx').on(t.parentId),
  ],
);

export const categories = pgTable(
  'categories',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    kind: text('kind', { enum: CATEGORY_KINDS }).notNull(),
    name: jsonb('name').$type<LocalizedText>().notNull(),
    ...tracked,
  },
  (t) => [uniqueIndex('categories_code_uq').on(t.code)],
);

export const amenities = pgTable(
  'amenities',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    group: text('group').notNull(),
    kinds: text('kinds').array().notNull(),
    name: jsonb('name').$type<LocalizedText>().notNull(),
    ...tracked,
  },
  (t) => [uniqueIndex('amenities_code_uq').on(t.code)],
);

export interface PhotoRow {
  thumb: string;
  medium: string;
  large: string | null;
}

export const listings = pgTable(
  'listings',
  {
    id: serial('id').primaryKey(),
    externalId: text('external_id').notNull(),
    kind: text('kind', { enum: LISTING_KINDS }).notNull(),
    status: text('status', { enum: RECORD_STATUSES }).notNull(),
    title: jsonb('title').$type<LocalizedText>().notNull(),
    description: jsonb('description').$type<LocalizedText>().notNull(),
    originalLang: text('original_lang').notNull(),
    placeId: integer('place_id').notNull(),
    lat: doublePrecision('lat'),
    lon: doublePrecision('lon'),
    locationMode: text('location_mode', { enum: LOCATION_MODES }).notNull(),
    priceMinor: bigint('price_minor', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    priceUnit: text('price_unit', { enum: PRICE_UNITS }).notNull(),
    ratingAvg: real('rating_avg'),
    ratingCount: integer('rating_count').notNull().default(0),
    photos: jsonb('photos').$type<PhotoRow[]>().notNull(),
    instantBook: boolean('instant_book').notNull().default(false),
    languages: text('languages').array().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    ...tracked,
  },
  (t) => [uniqueIndex('listings_external_id_uq').on(t.externalId), index('listings_place_idx').on(t.placeId)],
);

export const listingCategories = pgTable(
  'listing_categories',
  {
    listingId: integer('listing_id')
      .notNull()
      .references(() => listings.id, { onDelete: 'cascade' }),
    categoryId: integer('category_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.listingId, t.categoryId] })],
);

export const listingAmenities = pgTable(
  'listing_amenities',
  {
    listingId: integer('listing_id')
      .notNull()
      .references(() => listings.id, { onDelete: 'cascade' }),
    amenityId: integer('amenity_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.listingId, t.amenityId] })],
);

/** Not bookable from `date_from` (inclusive) to `date_to` (exclusive), in the listing's zone. */
export const listingBlockedRanges = pgTable(
  'listing_blocked_ranges',
  {
    listingId: integer('listing_id')
      .notNull()
      .references(() => listings.id, { onDelete: 'cascade' }),
    dateFrom: date('date_from').notNull(),
    dateTo: date('date_to').notNull(),
  },
  (t) => [primaryKey({ columns: [t.listingId, t.dateFrom] })],
);

const listingRef = () =>
  integer('listing_id')
    .primaryKey()
    .references(() => listings.id, { onDelete: 'cascade' });

export const listingStay = pgTable('listing_stay', {
  listingId: listingRef(),
  propertyType: text('property_type').notNull(),
  roomType: text('room_type').notNull(),
  bedrooms: smallint('bedrooms').notNull(),
  beds: smallint('beds').notNull(),
  bathrooms: smallint('bathrooms').notNull(),
  maxGuests: smallint('max_guests').notNull(),
  beachDistanceM: integer('beach_distance_m'),
  petsAllowed: boolean('pets_allowed').notNull(),
  smokingAllowed: boolean('smoking_allowed').notNull(),
  childrenAllowed: boolean('children_allowed').notNull(),
  partiesAllowed: boolean('parties_allowed').notNull(),
  longStay: boolean('long_stay').notNull(),
});

export const listingExperience = pgTable('listing_experience', {
  listingId: listingRef(),
  durationMin: integer('duration_min').notNull(),
  groupSizeMax: integer('group_size_max').notNull(),
  sameDay: boolean('same_day').notNull(),
});

export const listingService = pgTable('listing_service', {
  listingId: listingRef(),
  durationMin: integer('duration_min').notNull(),
  sameDay: boolean('same_day').notNull(),
});

export const listingTransport = pgTable('listing_transport', {
  listingId: listingRef(),
  vehicleKind: text('vehicle_kind').notNull(),
  transmission: text('transmission').notNull(),
  seats: smallint('seats').notNull(),
});

export const listingFood = pgTable('listing_food', {
  listingId: listingRef(),
  format: text('format').notNull(),
  diets: text('diets').array().notNull(),
  alcohol: boolean('alcohol').notNull(),
});

/** The table of each kind's block (the attributes of listing-attributes.ts in libs/catalog). */
export const listingKindTables = {
  stay: listingStay,
  experience: listingExperience,
  service: listingService,
  transport: listingTransport,
  food: listingFood,
} as const satisfies Record<(typeof LISTING_KINDS)[number], unknown>;

export const events = pgTable(
  'events',
  {
    id: serial('id').primaryKey(),
    externalId: text('external_id').notNull(),
    slug: text('slug').notNull(),
    status: text('status', { enum: RECORD_STATUSES }).notNull(),
    title: jsonb('title').$type<LocalizedText>().notNull(),
    description: jsonb('description').$type<LocalizedText>().notNull(),
    originalLang: text('original_lang').notNull(),
    categoryId: integer('category_id').notNull(),
    placeId: integer('place_id').notNull(),
    venueName: jsonb('venue_name').$type<LocalizedText>().notNull(),
    venueLat: doublePrecision('venue_lat').notNull(),
    venueLon: doublePrecision('venue_lon').notNull(),
    timezone: text('timezone').notNull(),
    entry: text('entry', { enum: EVENT_ENTRIES }).notNull(),
    priceMinor: bigint('price_minor', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    audience: text('audience').notNull(),
    crowd: text('crowd').notNull(),
    eventLang: text('event_lang').notNull(),
    ...tracked,
  },
  (t) => [uniqueIndex('events_external_id_uq').on(t.externalId), uniqueIndex('events_slug_uq').on(t.slug)],
);

/**
 * A one-off date (`kind` once: `date`) or a weekly rule (`kind` weekly: `days`, `date_from`,
 * `date_until`, `except_dates`). Times are local `HH:MM` in the event's zone; `end_time` before
 * `start_time` means the occurrence ends on the next day.
 */
export const eventSchedules = pgTable(
  'event_schedules',
  {
    eventId: integer('event_id')
      .notNull()
      .references(() => events.id, { onDelete: 'cascade' }),
    position: smallint('position').notNull(),
    kind: text('kind', { enum: SCHEDULE_KINDS }).notNull(),
    date: date('date'),
    days: text('days').array(),
    dateFrom: date('date_from'),
    dateUntil: date('date_until'),
    exceptDates: date('except_dates').array(),
    startTime: text('start_time').notNull(),
    endTime: text('end_time').notNull(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.position] })],
);

/** Postgres `xid8`: a transaction id, compared with snapshots by `pg_visible_in_snapshot`. */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });

/**
 * The change log the indexer drains: written in the same transaction as the catalog write, so
 * a change is indexed if and only if it committed. Rows are claimed with SKIP LOCKED, so
 * several workers share the work without taking the same row twice.
 *
 * `xact_id` is the writing transaction. Ids come from a sequence when the row is inserted, not
 * when it commits, so "id above a mark" misses a change that took a smaller id and committed
 * later; "not visible in the snapshot a full rebuild read from" (`reindexAll`) misses nothing.
 * Null on rows written before the column existed (all of them older than any rebuild since).
 */
export const catalogOutbox = pgTable(
  'catalog_outbox',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    entity: text('entity', { enum: ['listing', 'place', 'event', 'category', 'fx', 'currency', 'amenity'] }).notNull(),
    entityId: integer('entity_id').notNull(),
    version: bigint('version', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    deadAt: timestamp('dead_at', { withTimezone: true }),
    xactId: xid8('xact_id').default(sql`pg_current_xact_id()`),
  },
  (t) => [
    index('catalog_outbox_xact_idx').on(t.xactId),
    index('catalog_outbox_pending_idx')
      .on(t.nextAttemptAt, t.id)
      .where(sql`${t.processedAt} is null and ${t.deadAt} is null`),
    index('catalog_outbox_dead_idx')
      .on(t.deadAt)
      .where(sql`${t.deadAt} is not null`),
  ],
);
