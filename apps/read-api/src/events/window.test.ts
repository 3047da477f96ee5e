import { describe, expect, it } from 'vitest';
import { addDays, todayIn } from '@guest/catalog';
import { calendarWindow, listWindow } from './window.ts';

describe('todayIn: today is computed in the request zone', () => {
  it('is still the previous day in Bangkok one minute before local midnight', () => {
    expect(todayIn('Asia/Bangkok', new Date('2026-12-01T16:59:00Z'))).toBe('2026-12-01');
  });
  it('is the next day in Bangkok one minute after local midnight', () => {
    expect(todayIn('Asia/Bangkok', new Date('2026-12-01T17:01:00Z'))).toBe('2026-12-02');
  });
  it('differs by zone at the same instant', () => {
    expect(todayIn('Europe/London', new Date('2026-12-01T17:01:00Z'))).toBe('2026-12-01');
  });
});

describe('addDays', () => {
  it('crosses months and leap days', () => {
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });
});

describe('listWindow (upcoming and feed)', () => {
  const today = '2026-12-01';
  it('defaults to `days` days from today', () => {
    expect(listWindow({ days: 30 }, today, 180)).toEqual({ from: '2026-12-01', to: '2026-12-30' });
  });
  it('ignores `days` when `day` is given', () => {
    expect(listWindow({ days: 3, day: '2026-12-20' }, today, 180)).toEqual({ from: '2026-12-20', to: '2026-12-20' });
  });
  it('ignores `days` when `day_to` is given', () => {
    expect(listWindow({ days: 3, day_to: '2026-12-20' }, today, 180)).toEqual({ from: '2026-12-01', to: '2026-12-20' });
  });
  it('moves the window to `day_from` when it is given alone: `days` days from it', () => {
    expect(listWindow({ days: 10, day_from: '2026-12-05' }, today, 180)).toEqual({
      from: '2026-12-05',
      to: '2026-12-14',
    });
    // Past the default window: still `days` days, not nothing.
    expect(listWindow({ days: 30, day_from: '2027-02-01' }, today, 180)).toEqual({
      from: '2027-02-01',
      to: '2027-03-02',
    });
  });
  it('a `day_from` before today alone counts `days` from today', () => {
    expect(listWindow({ days: 3, day_from: '2026-11-01' }, today, 180)).toEqual({
      from: '2026-12-01',
      to: '2026-12-03',
    });
  });
  it('never starts before today', () => {
    expect(listWindow({ days: 5, day_from: '2026-11-01', day_to: '2026-12-02' }, today, 180)).toEqual({
      from: '2026-12-01',
      to: '2026-12-02',
    });
    expect(listWindow({ days: 5, day: '2026-11-30' }, today, 180)).toBeNull();
  });
  it('is cut at the 180-day horizon (upcoming rule 3)', () => {
    expect(listWindow({ days: 5, day_to: '2027-12-31' }, today, 180)).toEqual({ from: '2026-12-01', to: '2027-05-29' });
    expect(listWindow({ days: 5, day: '2027-05-30' }, today, 180)).toBeNull();
  });
  it('refuses day together with a range, and a range that ends before it starts', () => {
    expect(() => listWindow({ days: 5, day: '2026-12-02', day_from: '2026-12-01' }, today, 180)).toThrow(/either/);
    expect(() => listWindow({ days: 5, day_from: '2026-12-05', day_to: '2026-12-04' }, today, 180)).toThrow(/before/);
  });
});

describe('calendarWindow', () => {
  it('always has `days` entries from `first`, and reads only up to the horizon', () => {
    const w = calendarWindow('2027-05-27', 5, '2026-12-01', 180);
    expect(w.strip).toEqual(['2027-05-27', '2027-05-28', '2027-05-29', '2027-05-30', '2027-05-31']);
    expect(w.read).toEqual({ from: '2027-05-27', to: '2027-05-29' });
  });
  it('reads nothing when the strip starts past the horizon', () => {
    expect(calendarWindow('2027-07-01', 3, '2026-12-01', 180).read).toBeNull();
  });
});
