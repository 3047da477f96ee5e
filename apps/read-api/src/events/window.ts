import { addDays } from '@guest/catalog';
import { errors } from '@guest/http-kit';

/** Calendar arithmetic on `YYYY-MM-DD` values; days are venue-zone dates, never instants. */

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** Inclusive range of venue-zone days. */
export interface DayWindow {
  from: string;
  to: string;
}

/** Last day the schedules are read for (upcoming rule 3): today plus the horizon, exclusive. */
export function horizonEnd(today: string, horizonDays: number): string {
  return addDays(today, horizonDays - 1);
}

export interface DayFilters {
  day?: string | undefined;
  day_from?: string | undefined;
  day_to?: string | undefined;
}

/** `day` excludes a range; a range must not end before it starts. 400 names the field. */
export function checkDayFilters(q: DayFilters): void {
  if (q.day && (q.day_from || q.day_to)) {
    throw errors.validation(q.day_from ? 'day_from' : 'day_to', 'Give either `day` or `day_from`/`day_to`, not both.');
  }
  if (q.day_from && q.day_to && q.day_from > q.day_to) {
    throw errors.validation('day_to', '`day_to` must not be before `day_from`.');
  }
}

/**
 * Days the upcoming list and the by-day feed read (spec 4.8): `day` alone; else from today (or a
 * later `day_from`) to `day_to`; without `day` or `day_to`, `days` days from that first day, so
 * that `day_from` alone moves the window instead of cutting it (a `day_from` past the default
 * window used to read nothing at all). Never before today, never past the 180-day horizon. Null
 * when nothing is left of the window.
 */
export function listWindow(q: DayFilters & { days: number }, today: string, horizonDays: number): DayWindow | null {
  checkDayFilters(q);
  const last = horizonEnd(today, horizonDays);
  let from: string;
  let to: string;
  if (q.day) {
    from = q.day;
    to = q.day;
  } else {
    from = q.day_from && q.day_from > today ? q.day_from : today;
    to = q.day_to ?? addDays(from, q.days - 1);
  }
  if (from < today) from = today;
  if (to > last) to = last;
  return from <= to ? { from, to } : null;
}

/**
 * The calendar strip (spec 4.8, calendar rule 2): `days` days from `first`, whatever `day`,
 * `day_from` or `day_to` say; the days that are read are cut at the horizon (rule 3 of upcoming),
 * the strip itself always has `days` entries.
 */
export function calendarWindow(first: string, days: number, today: string, horizonDays: number) {
  const strip = Array.from({ length: days }, (_, i) => addDays(first, i));
  const last = horizonEnd(today, horizonDays);
  const to = strip[strip.length - 1]! < last ? strip[strip.length - 1]! : last;
  const read: DayWindow | null = first <= to ? { from: first, to } : null;
  return { strip, read };
}
