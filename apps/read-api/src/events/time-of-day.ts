import type { Dsl } from '@guest/search-engine';

/**
 * Time of day of an event, by its local start time at the venue (minutes after local midnight,
 * `start_minute` in the index). The evening runs through the night until 04:59, so a 01:00 party
 * is an evening event of the day it starts on.
 */
export const TIME_OF_DAY = {
  morning: { from: 5 * 60, to: 12 * 60 - 1 }, // 05:00–11:59
  day: { from: 12 * 60, to: 17 * 60 - 1 }, // 12:00–16:59
  evening: { from: 17 * 60, to: 5 * 60 - 1 }, // 17:00–04:59, wraps past midnight
} as const;

export type TimeOfDay = keyof typeof TIME_OF_DAY;

/** `HH:MM` → minutes after midnight. */
export function minuteOf(hhmm: string): number {
  const [h, m] = hhmm.split(':').map(Number);
  return h! * 60 + m!;
}

export function timeOfDay(startMinute: number): TimeOfDay {
  if (startMinute >= TIME_OF_DAY.morning.from && startMinute <= TIME_OF_DAY.morning.to) return 'morning';
  if (startMinute >= TIME_OF_DAY.day.from && startMinute <= TIME_OF_DAY.day.to) return 'day';
  return 'evening';
}

/** Query-DSL clause on `start_minute` for one bucket. */
export function timeOfDayClause(t: TimeOfDay): Dsl {
  const b = TIME_OF_DAY[t];
  if (b.from <= b.to) return { range: { start_minute: { gte: b.from, lte: b.to } } };
  return {
    bool: {
      should: [{ range: { start_minute: { gte: b.from } } }, { range: { start_minute: { lte: b.to } } }],
      minimum_should_match: 1,
    },
  };
}
