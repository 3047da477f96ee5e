import {
  basePriceMinor,
  occurrenceId,
  type EventOccurrenceDocument,
  type Texts,
  type Weekday,
  todayIn,
} from '@guest/catalog';
import { expandSchedule, type ScheduleSlot } from '../schedule/expand-schedule.ts';
import {
  documentVersion,
  pathNames,
  placePath,
  placeRef,
  type EventRow,
  type EventScheduleRow,
  type ProjectionContext,
} from './context.ts';

export interface EventSource {
  event: EventRow;
  schedule: EventScheduleRow[];
}

export function toSlots(rows: EventScheduleRow[]): ScheduleSlot[] {
  return [...rows]
    .sort((a, b) => a.position - b.position)
    .map((r) =>
      r.kind === 'once'
        ? { kind: 'once', date: r.date!, start: r.startTime, end: r.endTime }
        : {
            kind: 'weekly',
            days: (r.days ?? []) as Weekday[],
            from: r.dateFrom!,
            until: r.dateUntil!,
            except: r.exceptDates ?? [],
            start: r.startTime,
            end: r.endTime,
          },
    );
}

export interface OccurrenceDoc {
  id: string;
  doc: EventOccurrenceDocument;
}

/** The version every occurrence document of this event carries. */
export function eventVersion(src: EventSource, ctx: ProjectionContext): number {
  const category = ctx.categories.get(src.event.categoryId);
  return documentVersion(src.event.version, placePath(ctx, src.event.placeId), category ? [category.version] : [], ctx);
}

/**
 * Pure: an event and its schedule in, one document per occurrence in the horizon out (none when
 * the event is not published). "Today" is the date in the venue's zone at `now`; an occurrence
 * that started the day before and has not ended at `now` is in too.
 */
export function projectEventOccurrences(
  src: EventSource,
  ctx: ProjectionContext,
  now: Date,
  horizonDays: number,
): OccurrenceDoc[] {
  const e = src.event;
  if (e.status !== 'published') return [];
  const category = ctx.categories.get(e.categoryId);
  const path = placePath(ctx, e.placeId);
  const own = path[path.length - 1];
  if (!category || !own) return [];
  const version = eventVersion(src, ctx);
  const point = { lat: e.venueLat, lon: e.venueLon };
  const occurrences = expandSchedule(toSlots(src.schedule), e.timezone, todayIn(e.timezone, now), horizonDays, now);
  return occurrences.map((o) => ({
    id: occurrenceId(e.id, o.day, o.slot),
    doc: {
      event_id: e.id,
      external_id: e.externalId,
      slug: e.slug,
      version,
      day: o.day,
      start_time: o.start,
      end_time: o.end,
      start_minute: Number(o.start.slice(0, 2)) * 60 + Number(o.start.slice(3, 5)),
      // The local wall clock read as if it were UTC: one value in "day, start time" order.
      local_start_key: Date.parse(`${o.day}T${o.start}:00Z`),
      start_at: o.startAt,
      end_at: o.endAt,
      ends_next_day: o.endsNextDay,
      timezone: e.timezone,
      category: { id: category.id, code: category.code, name: category.name as Texts },
      entry: e.entry,
      price_minor: e.priceMinor,
      currency: e.currency,
      price_base_minor: basePriceMinor(e.priceMinor, e.currency, ctx.fx),
      audience: e.audience,
      crowd: e.crowd,
      event_lang: e.eventLang,
      title: e.title as Texts,
      description: e.description as Texts,
      original_lang: e.originalLang,
      venue: { name: e.venueName as Texts, point },
      location: point,
      place: placeRef(own),
      place_path_ids: path.map((p) => p.id),
      place_names: pathNames(path),
    },
  }));
}
