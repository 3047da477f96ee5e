import { describe, expect, it } from 'vitest';
import { cardTotal, nightsBetween } from './totals.ts';

describe('the total of a card for the dates searched', () => {
  it('counts the nights from the first day to the day of leaving; one without an end', () => {
    expect(nightsBetween('2026-12-01', '2026-12-08')).toBe(7);
    expect(nightsBetween('2026-12-30', '2027-01-02')).toBe(3);
    expect(nightsBetween('2026-12-01', undefined)).toBe(1);
    expect(nightsBetween('2026-12-01', '2026-12-01')).toBe(1);
  });

  it('multiplies a nightly or daily price by the nights', () => {
    expect(cardTotal({ price_minor: 150000, currency: 'THB', price_unit: 'night' }, 7)).toEqual({
      nights: 7,
      total_minor: 1050000,
      currency: 'THB',
    });
    expect(cardTotal({ price_minor: 3000, currency: 'USD', price_unit: 'day' }, 3)?.total_minor).toBe(9000);
  });

  it('takes a monthly price as 30 nights', () => {
    expect(cardTotal({ price_minor: 3000000, currency: 'THB', price_unit: 'month' }, 15)?.total_minor).toBe(1500000);
    expect(cardTotal({ price_minor: 3000000, currency: 'THB', price_unit: 'month' }, 60)?.total_minor).toBe(6000000);
  });

  it('gives no total for prices that do not follow the dates', () => {
    for (const unit of ['person', 'hour', 'trip', 'item'])
      expect(cardTotal({ price_minor: 100, currency: 'THB', price_unit: unit }, 4)).toBeNull();
  });
});
