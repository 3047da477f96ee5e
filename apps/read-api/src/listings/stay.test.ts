import { describe, expect, it } from 'vitest';
import { blockedWithin, priceStay, priceUnits } from './stay.ts';

describe('blockedWithin', () => {
  const window = { from: '2026-11-27', to: '2027-11-27' };

  it('clips ranges to the window, drops those outside, sorts and merges overlapping or touching ones', () => {
    expect(
      blockedWithin(
        [
          { gte: '2027-01-10', lt: '2027-01-12' },
          { gte: '2026-11-01', lt: '2026-11-29' },
          { gte: '2026-10-01', lt: '2026-10-05' },
          { gte: '2027-01-12', lt: '2027-01-14' },
          { gte: '2027-01-11', lt: '2027-01-13' },
          { gte: '2027-11-20', lt: '2028-01-01' },
          { gte: '2028-02-01', lt: '2028-02-03' },
        ],
        window,
      ),
    ).toEqual([
      { from: '2026-11-27', to: '2026-11-29' },
      { from: '2027-01-10', to: '2027-01-14' },
      { from: '2027-11-20', to: '2027-11-27' },
    ]);
  });

  it('none: empty', () => {
    expect(blockedWithin([], window)).toEqual([]);
  });
});

describe('priceUnits', () => {
  it.each([
    ['night', 3, 2, null, 3],
    ['day', 3, 2, null, 3],
    ['month', 30, 1, null, 1],
    ['month', 45, 1, null, 1.5],
    ['person', 3, 4, 120, 4],
    ['hour', 1, 2, 90, 2],
    ['hour', 1, 2, null, 1],
    ['trip', 5, 3, null, 1],
    ['item', 5, 3, null, 1],
  ] as const)('%s, %i days, %i guests, %s minutes: %d', (unit, nights, guests, duration, units) => {
    expect(priceUnits(unit, nights, guests, duration)).toBe(units);
  });
});

describe('priceStay', () => {
  const listing = {
    blocked: [{ gte: '2026-12-20', lt: '2026-12-27' }],
    capacity: 4,
    price_minor: 1000,
    unit: 'night' as const,
    duration_min: null,
  };

  it('free when no blocked day is in the range (the check-out day may be the first blocked one)', () => {
    expect(priceStay({ from: '2026-12-17', to: '2026-12-20', guests: 2 }, listing)).toEqual({
      free: true,
      reason: null,
      nights: 3,
      units: 3,
      total_minor: 3000,
    });
  });

  it("per month: the nights' share of a 30-night month, rounded as the feed card's total", () => {
    expect(
      priceStay(
        { from: '2026-12-01', to: '2026-12-08', guests: 1 },
        { ...listing, unit: 'month', price_minor: 3000001 },
      ),
    ).toMatchObject({
      nights: 7,
      total_minor: Math.round((3000001 * 7) / 30),
    });
  });

  it('blocked wins over capacity as the reason; both make it not free', () => {
    expect(priceStay({ from: '2026-12-19', to: '2026-12-21', guests: 9 }, listing)).toMatchObject({
      free: false,
      reason: 'blocked',
    });
    expect(priceStay({ from: '2026-12-01', to: '2026-12-02', guests: 5 }, listing)).toMatchObject({
      free: false,
      reason: 'over_capacity',
    });
    expect(
      priceStay({ from: '2026-12-01', to: '2026-12-02', guests: 50 }, { ...listing, capacity: null }),
    ).toMatchObject({
      free: true,
    });
  });
});
