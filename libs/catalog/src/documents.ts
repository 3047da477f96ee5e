import type { Texts } from './languages.ts';
import type { BlockDocument, SharedDocument } from './listing-attributes.ts';
import type { ListingKind } from './vocabulary.ts';

/**
 * The documents of the three indices, as the read API finds them in `_source`. Original texts
 * of every language are kept, so a reader can answer in the request language with English
 * fallback and mark translations (`original_lang`).
 */

export interface GeoPoint {
  lat: number;
  lon: number;
}

/** Names of every place from the country down to the object's own place, per language. */
export type PlaceNames = Partial<Record<keyof Texts, string[]>>;

export interface PlaceRef {
  id: number;
  slug: string;
  level: string;
  name: Texts;
}

/** The kinds' blocks of a listing document: its own kind's filled, the others null (listing-attributes.ts). */
export type ListingBlocks = { [K in ListingKind]: BlockDocument<K> | null };

export interface ListingDocument extends ListingBlocks, SharedDocument {
  id: number;
  external_id: string;
  kind: ListingKind;
  version: number;
  title: Texts;
  description: Texts;
  original_lang: string;
  place: PlaceRef;
  /** Ids from the country down to the listing's own place. */
  place_path_ids: number[];
  place_names: PlaceNames;
  /** Null for `city_only`: such objects are left off the map. */
  location: GeoPoint | null;
  location_mode: 'exact' | 'approximate' | 'city_only';
  has_point: boolean;
  /**
   * Centre of the listing's own place (else of the nearest place above it that has one): where a
   * `city_only` listing is for the `bbox` and `near` filters, which it must not escape.
   */
  place_center: GeoPoint | null;
  price_minor: number;
  currency: string;
  /** Price in minor units of the base currency (THB), null when no FX rate is known. */
  price_base_minor: number | null;
  price_unit: string;
  rating_avg: number | null;
  rating_count: number;
  instant_book: boolean;
  languages: string[];
  category_ids: number[];
  category_codes: string[];
  amenities: string[];
  /** Not bookable: `gte` inclusive, `lt` exclusive (a `date_range`); available = no overlap. */
  blocked: Array<{ gte: string; lt: string }>;
  /**
   * The first photo, the only one a card shows: the feed reads this field alone (`CARD_SOURCE`),
   * never `photos`, so a feed page's engine answer stays small whatever a listing has.
   */
  cover_photo: { thumb: string; medium: string; large: string | null } | null;
  /** Every photo with its three sizes, in the host's order: the listing page's gallery (stored, not indexed). */
  photos: Array<{ thumb: string; medium: string; large: string | null }>;
  created_at: string;
  /** Titles in every language, for search-as-you-type suggestions. */
  suggest: string[];
}

export interface PlaceDocument {
  id: number;
  external_id: string;
  parent_id: number | null;
  level: string;
  slug: string;
  name: Texts;
  /** "Kata, Phuket, Thailand" per language (English fallback for missing names). */
  name_full: Texts;
  path: PlaceRef[];
  path_ids: number[];
  place_names: PlaceNames;
  timezone: string | null;
  currency: string | null;
  center: GeoPoint | null;
  popular: boolean;
  version: number;
  /** The place's own names in every language, for suggestions. */
  suggest: string[];
}

export interface EventOccurrenceDocument {
  event_id: number;
  external_id: string;
  slug: string;
  version: number;
  /** Date of the start, in the venue's zone. */
  day: string;
  /** Local `HH:MM` in the venue's zone; `end_time` < `start_time` when it ends after midnight. */
  start_time: string;
  end_time: string;
  /** Minutes after local midnight of the start, for the morning/day/evening filter. */
  start_minute: number;
  /**
   * The local wall-clock start as epoch milliseconds (`day` at UTC midnight plus `start_minute`):
   * the "day, start time" order as one value, comparable across zones. Indexed so that queries
   * need no script (the portable subset has none).
   */
  local_start_key: number;
  start_at: string;
  end_at: string;
  ends_next_day: boolean;
  timezone: string;
  category: { id: number; code: string; name: Texts };
  entry: 'free' | 'paid';
  price_minor: number;
  currency: string;
  price_base_minor: number | null;
  audience: string;
  crowd: string;
  event_lang: string;
  title: Texts;
  description: Texts;
  original_lang: string;
  venue: { name: Texts; point: GeoPoint };
  location: GeoPoint;
  place: PlaceRef;
  place_path_ids: number[];
  place_names: PlaceNames;
}
