import { describe, expect, it } from 'vitest';
import { convertLimits, convertMinor } from './fx.ts';

const fx = { base: 'THB', rates: { USD: 0.028, EUR: 0.026, JPY: 4.2 } };

describe('amounts in another currency', () => {
  it('goes through the base currency, minding each currency’s minor units', () => {
    expect(convertMinor(fx, 100000, 'THB', 'USD')).toBe(2800); // 1,000 THB is 28 USD
    expect(convertMinor(fx, 2800, 'USD', 'THB')).toBe(100000);
    expect(convertMinor(fx, 2800, 'USD', 'EUR')).toBe(2600);
    expect(convertMinor(fx, 100000, 'THB', 'JPY')).toBe(4200); // the yen has no minor unit
    expect(convertMinor(fx, 500, 'USD', 'USD')).toBe(500);
  });

  it('knows no amount without a rate', () => {
    expect(convertMinor(fx, 100, 'THB', 'GBP')).toBeNull();
    expect(convertMinor(null, 100, 'THB', 'USD')).toBeNull();
  });

  it('converts the chosen price limits when the currency changes: THB 124,138 is about $3,476, not $124,138', () => {
    expect(convertLimits(fx, { price_min: null, price_max: 12413800 }, 'THB', 'USD')).toEqual({
      price_min: null,
      price_max: 347586,
    });
    expect(convertLimits(fx, { price_min: 2800, price_max: 5600 }, 'USD', 'THB')).toEqual({
      price_min: 100000,
      price_max: 200000,
    });
    expect(convertLimits(fx, { price_min: 100, price_max: null }, 'THB', 'GBP')).toEqual({
      price_min: null,
      price_max: null,
    });
  });
});
