import { CONTENT_LANGUAGES } from './languages.ts';

/**
 * The catalog's vocabularies, declared once: the record schemas (records.ts), the tables
 * (libs/db/src/schema/catalog.ts), the listing attributes and the read API's parameters and
 * answers take them from here.
 */

export const LISTING_KINDS = ['stay', 'experience', 'service', 'transport', 'food'] as const;
export type ListingKind = (typeof LISTING_KINDS)[number];

/** Kinds a category belongs to: every listing kind but stays (they have property types), and events. */
export const CATEGORY_KINDS = ['experience', 'service', 'transport', 'food', 'event'] as const satisfies ReadonlyArray<
  Exclude<ListingKind, 'stay'> | 'event'
>;
export type CategoryKind = (typeof CATEGORY_KINDS)[number];

export const PLACE_LEVELS = ['country', 'region', 'district', 'area'] as const;
/** Whether a listing or an event is shown: only `published` ones reach the index. */
export const RECORD_STATUSES = ['draft', 'published', 'archived'] as const;
/** How exactly a listing's point is known: a `city_only` listing has none and is left off the map. */
export const LOCATION_MODES = ['exact', 'approximate', 'city_only'] as const;
export const PRICE_UNITS = ['night', 'month', 'person', 'hour', 'day', 'trip', 'item'] as const;
export const TRANSMISSIONS = ['automatic', 'manual'] as const;
export const EVENT_ENTRIES = ['free', 'paid'] as const;
export const EVENT_AUDIENCES = ['family', 'adults'] as const;
export const EVENT_CROWDS = ['intimate', 'small', 'medium', 'large'] as const;
/** The language an event is held in: a content language, or several (`multi`). */
export const EVENT_LANGS = [...CONTENT_LANGUAGES, 'multi'] as const;
export const SCHEDULE_KINDS = ['once', 'weekly'] as const;
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
