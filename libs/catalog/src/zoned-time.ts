/**
 * Local dates and wall-clock times in IANA zones, for the indexer (schedules to occurrences) and
 * the read API (today in the guest's zone, day windows), without a date library on the hot path:
 * a full rebuild turns every event's schedule into about 120,000 occurrences with two instants
 * each, and Luxon's parsing and per-call offset lookups were the largest share of its CPU.
 *
 * Days are ISO dates (`2027-03-28`) or, for arithmetic, whole days since 1970-01-01 ("epoch
 * days"); both are zone-free. Only turning a local date and time into an instant needs the zone,
 * and that answer is kept, since a catalog repeats a few zones, 181 days and a few start times.
 */

const DAY_MS = 86_400_000;

export function epochDay(isoDate: string): number {
  return Date.UTC(Number(isoDate.slice(0, 4)), Number(isoDate.slice(5, 7)) - 1, Number(isoDate.slice(8, 10))) / DAY_MS;
}

export function isoDate(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** ISO weekday of an epoch day: Monday 1 … Sunday 7 (1970-01-01 was a Thursday). */
export function isoWeekday(day: number): number {
  return ((((day + 3) % 7) + 7) % 7) + 1;
}

export function addDays(isoDay: string, n: number): string {
  return isoDate(epochDay(isoDay) + n);
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(zone, f);
  }
  return f;
}

/** The zone's wall clock at an instant, read as if it were UTC, in ms. */
function wallClockMs(zone: string, at: number): number {
  const p: Record<string, number> = {};
  for (const part of formatIn(zone).formatToParts(at)) {
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  }
  return Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
}

/** The zone's offset from UTC at an instant, in ms (positive east of Greenwich). */
function offsetMs(zone: string, at: number): number {
  // Whole seconds: Intl shows no milliseconds, so they are taken off `at` to compare like with like.
  return wallClockMs(zone, at) - Math.floor(at / 1000) * 1000;
}

/** "Today" for an object is the date at its own zone, not the server's. */
export function todayIn(zone: string, now: Date): string {
  return new Date(wallClockMs(zone, now.getTime())).toISOString().slice(0, 10);
}

/**
 * The instant of a local date and time in a zone, as ISO 8601 UTC without milliseconds. Where
 * the clocks jump the answer is the one Temporal calls "compatible" (and RFC 5545 asks for):
 * a time inside a spring-forward gap is read with the offset from before the gap, so it lands
 * as far after the gap as it was into it (02:30 on a night that skips 02:00–03:00 is 03:30); a
 * time that a fall-back shows twice is its first, earlier instant.
 */
export function zonedInstant(isoDay: string, hhmm: string, zone: string): string {
  const key = `${zone} ${isoDay} ${hhmm}`;
  let iso = instants.get(key);
  if (iso === undefined) {
    const local = Date.UTC(
      Number(isoDay.slice(0, 4)),
      Number(isoDay.slice(5, 7)) - 1,
      Number(isoDay.slice(8, 10)),
      Number(hhmm.slice(0, 2)),
      Number(hhmm.slice(3, 5)),
    );
    iso = `${new Date(resolveLocal(local, zone)).toISOString().slice(0, 19)}Z`;
    // Bounded: a worker that runs for months sees new days every day.
    if (instants.size >= INSTANT_CACHE_MAX) instants.clear();
    instants.set(key, iso);
  }
  return iso;
}

const INSTANT_CACHE_MAX = 100_000;
const instants = new Map<string, string>();

function resolveLocal(local: number, zone: string): number {
  // No zone moves its clocks more than once within a day either side of a wall-clock time, so
  // the offsets a day before and a day after are the only ones that can apply.
  const before = offsetMs(zone, local - DAY_MS);
  const after = offsetMs(zone, local + DAY_MS);
  const candidates = (before === after ? [before] : [before, after])
    .map((offset) => local - offset)
    .filter((at) => wallClockMs(zone, at) === local)
    .sort((a, b) => a - b);
  return candidates[0] ?? local - before;
}
