import { pickText, type ContentLanguage, type EventOccurrenceDocument, type Texts } from '@guest/catalog';
import type { EventCardT } from './schemas.ts';

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
