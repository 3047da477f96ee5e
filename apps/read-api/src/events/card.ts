import { pickText, type ContentLanguage, type EventOccurrenceDocument, type Texts } from '@guest/catalog';
import type { EventCardT, EventMapPointT } from './schemas.ts';

/**
 * Fields of `_source` a point of the events map needs. A street-level events map reads up to
 * `MAP_MAX_POINTS` occurrences: whole, 500 of them came to 590 kB (descriptions, search helpers)
 * for a 54 kB answer, and parsing them cost the read API 6–6.6 ms of CPU a map and its p99 at one
 * connection 47–50 ms, against 2.7 ms and 23–25 ms with these fields only. Cards keep whole
 * documents: for a page of 21 the engine's source filtering cost it more throughput (13–26 %)
 * than it saved the API (5–7 % of CPU).
 */
export const EVENT_POINT_SOURCE = [
  'event_id',
  'slug',
  'title',
  'original_lang',
  'category.code',
  'day',
  'start_time',
  'location',
] as const;

export type EventPointSource = Pick<
  EventOccurrenceDocument,
  'event_id' | 'slug' | 'title' | 'original_lang' | 'day' | 'start_time' | 'location'
> & { category: Pick<EventOccurrenceDocument['category'], 'code'> };

/** A text in the request language, else English, else any there is. */
export function textIn(texts: Texts | undefined, lang: ContentLanguage): string | null {
  return texts ? (pickText(texts, lang, 'en')?.text ?? null) : null;
}

/** One occurrence document → the EventCard a client sees (DESIGN.md section 4). */
export function toEventCard(doc: EventOccurrenceDocument, lang: ContentLanguage): EventCardT {
  const title = pickText(doc.title, lang, doc.original_lang);
  return {
    id: doc.event_id,
    slug: doc.slug,
    title: title?.text ?? doc.slug,
    category: { code: doc.category.code, name: textIn(doc.category.name, lang) ?? doc.category.code },
    day: doc.day,
    start_time: doc.start_time,
    end_time: doc.end_time,
    ends_next_day: doc.ends_next_day,
    start_at: doc.start_at,
    end_at: doc.end_at,
    timezone: doc.timezone,
    entry: doc.entry,
    price_minor: doc.price_minor,
    currency: doc.currency,
    audience: doc.audience,
    crowd: doc.crowd,
    event_lang: doc.event_lang,
    venue: { name: textIn(doc.venue.name, lang) ?? '', place_name: textIn(doc.place.name, lang) },
    place: { id: doc.place.id, slug: doc.place.slug, name: textIn(doc.place.name, lang) ?? doc.place.slug },
    point: { lat: doc.location.lat, lon: doc.location.lon },
    lang: title?.lang ?? 'en',
    translated: title?.translated ?? false,
  };
}

/** One occurrence document → a point of the events map, titled as its card would be. */
export function toEventPoint(doc: EventPointSource, lang: ContentLanguage): EventMapPointT {
  return {
    id: doc.event_id,
    slug: doc.slug,
    title: pickText(doc.title, lang, doc.original_lang)?.text ?? doc.slug,
    category_code: doc.category.code,
    day: doc.day,
    start_time: doc.start_time,
    lat: doc.location.lat,
    lon: doc.location.lon,
  };
}
