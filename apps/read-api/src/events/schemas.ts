import { z } from 'zod';
import { UnmatchedTerms } from '../query-understanding/schemas.ts';

/** Response shapes of the events routes (DESIGN.md section 4: EventCard, CalendarDay). */

const hhmm = z.string().regex(/^\d{2}:\d{2}$/);
const date = z.string().meta({ format: 'date' });

export const EventPoint = z.object({ lat: z.number(), lon: z.number() }).meta({ id: 'EventPoint' });

export const EventCategoryRef = z
  .object({ code: z.string(), name: z.string() })
  .meta({ id: 'EventCategoryRef', description: 'Category of an event, named in the request language.' });

export const EventCard = z
  .object({
    id: z.number().int(),
    slug: z.string(),
    title: z
      .string()
      .meta({ description: 'In the request language, else English, else the language it was written in.' }),
    category: EventCategoryRef,
    day: date.meta({ description: 'Day of this occurrence, in the venue zone.' }),
    start_time: hhmm.meta({ description: 'Local start `HH:MM` at the venue.' }),
    end_time: hhmm.meta({ description: 'Local end `HH:MM`; earlier than start_time when it ends the next day.' }),
    ends_next_day: z.boolean(),
    start_at: z.string().meta({ format: 'date-time', description: 'Start instant, UTC.' }),
    end_at: z.string().meta({ format: 'date-time', description: 'End instant, UTC.' }),
    timezone: z.string().meta({ description: 'IANA zone of the venue.' }),
    entry: z.enum(['free', 'paid']),
    price_minor: z.number().int(),
    currency: z.string(),
    audience: z.string(),
    crowd: z.string(),
    event_lang: z.string(),
    venue: z.object({ name: z.string(), place_name: z.string().nullable() }),
    place: z.object({ id: z.number().int(), slug: z.string(), name: z.string() }),
    point: EventPoint,
    lang: z.string().meta({ description: 'Language of the texts returned.' }),
    translated: z.boolean().meta({ description: 'True when the title is not in the language it was written in.' }),
  })
  .meta({ id: 'EventCard' });

export const CalendarDay = z
  .object({
    date,
    count: z.number().int().meta({ description: 'Events (distinct) that day matching the filters.' }),
  })
  .meta({ id: 'CalendarDay' });

export const CalendarResponse = z
  .object({
    days: z.array(CalendarDay),
    timezone: z.string().meta({ description: 'Zone in which today is computed.' }),
    today: date,
  })
  .meta({ id: 'CalendarResponse' });

export const UpcomingResponse = z
  .object({
    items: z.array(EventCard),
    next_cursor: z.string().nullable(),
    has_more: z.boolean().default(false),
    total: z.number().int().nullable().meta({ description: 'Distinct matching events; only with `with_total=true`.' }),
    unmatched_terms: UnmatchedTerms,
  })
  .meta({ id: 'UpcomingResponse' });

export const FeedDay = z
  .object({ date, events: z.array(EventCard) })
  .meta({ id: 'EventFeedDay', description: 'One day of the feed; a day may continue on the next page.' });

export const EventFeedResponse = z
  .object({
    items: z.array(FeedDay),
    next_cursor: z.string().nullable(),
    has_more: z.boolean(),
    unmatched_terms: UnmatchedTerms,
  })
  .meta({ id: 'EventFeedResponse' });

export const EventMapCluster = z
  .object({
    lat: z.number(),
    lon: z.number(),
    count: z.number().int(),
    bbox: z
      .tuple([z.number(), z.number(), z.number(), z.number()])
      .meta({ description: 'minLon,minLat,maxLon,maxLat' }),
  })
  .meta({ id: 'EventMapCluster' });

export const EventMapPoint = z
  .object({
    id: z.number().int(),
    slug: z.string(),
    title: z.string(),
    category_code: z.string(),
    day: date,
    start_time: hhmm,
    lat: z.number(),
    lon: z.number(),
  })
  .meta({ id: 'EventMapPoint' });

export const EventMapResponse = z
  .object({
    clusters: z.array(EventMapCluster),
    points: z.array(EventMapPoint),
    truncated: z.boolean().default(false),
    total: z.number().int().default(0),
  })
  .meta({ id: 'EventMapResponse' });

export const EventOccurrence = z
  .object({
    day: date,
    start_time: hhmm,
    end_time: hhmm,
    ends_next_day: z.boolean(),
    start_at: z.string().meta({ format: 'date-time' }),
    end_at: z.string().meta({ format: 'date-time' }),
  })
  .meta({ id: 'EventOccurrence' });

export const EventPageResponse = EventCard.extend({
  description: z.string().nullable(),
  next_occurrences: z.array(EventOccurrence),
}).meta({ id: 'EventPageResponse' });

export type EventCardT = z.infer<typeof EventCard>;
export type EventMapPointT = z.infer<typeof EventMapPoint>;
