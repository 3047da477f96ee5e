import { describe, expect, it } from 'vitest';
import { minuteOf, timeOfDay, timeOfDayClause } from './time-of-day.ts';

describe('time of day buckets (morning 05:00–11:59, day 12:00–16:59, evening 17:00–04:59)', () => {
  it.each([
    ['04:59', 'evening'],
    ['05:00', 'morning'],
    ['11:59', 'morning'],
    ['12:00', 'day'],
    ['16:59', 'day'],
    ['17:00', 'evening'],
    ['23:59', 'evening'],
    ['00:00', 'evening'],
  ])('%s is %s', (hhmm, bucket) => {
    expect(timeOfDay(minuteOf(hhmm))).toBe(bucket);
  });

  it('builds a plain range for morning and day, and a wrapped range for the evening', () => {
    expect(timeOfDayClause('morning')).toEqual({ range: { start_minute: { gte: 300, lte: 719 } } });
    expect(timeOfDayClause('day')).toEqual({ range: { start_minute: { gte: 720, lte: 1019 } } });
    expect(timeOfDayClause('evening')).toEqual({
      bool: {
        should: [{ range: { start_minute: { gte: 1020 } } }, { range: { start_minute: { lte: 299 } } }],
        minimum_should_match: 1,
      },
    });
  });
});
