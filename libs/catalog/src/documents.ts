import type { Texts } from './languages.ts';
import type { ListingKind } from './records.ts';

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

export interface ListingDocument {
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
  diets: string[];
  /** Not bookable: `gte` inclusive, `lt` exclusive (a `date_range`); available = no overlap. */
  blocked: Array<{ gte: string; lt: string }>;
  /**
   * The first photo, the only one a card shows. The index keeps no other: every photo with its
   * three sizes was a third of a feed page's engine answer (25 KB for 21 cards), which the
   * engine read and wrote and the read API parsed on every page.
   */
  cover_photo: { thumb: string; medium: string; large: string | null } | null;
  created_at: string;
  /** Experience and service both have a duration and a same-day flag: one field for filters. */
  duration_min: number | null;
  same_day: boolean | null;
  stay: {
    property_type: string;
    room_type: string;
    bedrooms: number;
    beds: number;
    bathrooms: number;
    max_guests: number;
    beach_distance_m: number | null;
    pets_allowed: boolean;
    smoking_allowed: boolean;
    children_allowed: boolean;
    parties_allowed: boolean;
    long_stay: boolean;
  } | null;
  experience: { duration_min: number; group_size_max: number; same_day: boolean } | null;
  service: { duration_min: number; same_day: boolean } | null;
  transport: { vehicle_kind: string; transmission: string; seats: number } | null;
  food: { format: string; diets: string[]; alcohol: boolean } | null;
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
