import { addDays, epochDay, isoDate, isoWeekday, zonedInstant, type Weekday } from '@guest/catalog';

export type ScheduleSlot =
  | { kind: 'once'; date: string; start: string; end: string }
  | { kind: 'weekly'; days: Weekday[]; from: string; until: string; except: string[]; start: string; end: string };

export interface Occurrence {
  /** Index of the schedule entry that produced it (two entries may fall on one day). */
  slot: number;
  /** Local date of the start, in the event's zone. */
  day: string;
  start: string;
  end: string;
  startAt: string;
  endAt: string;
  endsNextDay: boolean;
}

const WEEKDAY_NUMBER: Record<Weekday, number> = { mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6, sun: 7 };

function occurrence(slot: number, day: string, start: string, end: string, zone: string): Occurrence {
  // An end not after the start means the occurrence runs past midnight into the next day.
  // Wall-clock arithmetic in the zone: a local 06:30 stays 06:30 across a DST change.
  const endsNextDay = end <= start;
  return {
    slot,
    day,
    start,
    end,
    startAt: zonedInstant(day, start, zone),
    endAt: zonedInstant(endsNextDay ? addDays(day, 1) : day, end, zone),
    endsNextDay,
  };
}

/**
 * Every occurrence whose local start date lies in [today, today + horizonDays), in the event's
 * zone, ordered by start, each day and time once (entries that repeat each other give one).
 * Weekly entries skip their `except` dates. Given `now`, an occurrence of
 * the day before that is still running is kept too: a party from 22:00 to 03:00 is still on at
 * 01:00, and guests looking for what is on now must find it until it ends.
 */
export function expandSchedule(
  slots: ScheduleSlot[],
  zone: string,
  today: string,
  horizonDays: number,
  now?: Date,
): Occurrence[] {
  // Only an occurrence that started yesterday can still run: none lasts longer than a day.
  const first = now ? addDays(today, -1) : today;
  const last = addDays(today, horizonDays - 1);
  const out: Occurrence[] = [];
  slots.forEach((s, slot) => {
    if (s.kind === 'once') {
      if (s.date >= first && s.date <= last) out.push(occurrence(slot, s.date, s.start, s.end, zone));
      return;
    }
    const except = new Set(s.except);
    const days = new Set(s.days.map((d) => WEEKDAY_NUMBER[d]));
    const from = s.from > first ? s.from : first;
    const stop = s.until < last ? s.until : last;
    for (let d = epochDay(from), end = epochDay(stop); d <= end; d++) {
      if (!days.has(isoWeekday(d))) continue;
      const day = isoDate(d);
      if (!except.has(day)) out.push(occurrence(slot, day, s.start, s.end, zone));
    }
  });
  const current = now ? out.filter((o) => o.day >= today || Date.parse(o.endAt) > now.getTime()) : out;
  current.sort((a, b) => (a.startAt < b.startAt ? -1 : a.startAt > b.startAt ? 1 : a.slot - b.slot));
  // Two entries giving the same day and the same times (a one-off date that repeats a weekly
  // slot) are one occurrence for a guest: one card, one count. The first entry's is kept, so the
  // occurrence id stays the same whatever the order of the later ones.
  const seen = new Set<string>();
  return current.filter((o) => {
    const key = `${o.day} ${o.start} ${o.end}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
