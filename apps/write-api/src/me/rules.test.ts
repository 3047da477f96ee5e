import { describe, expect, it } from 'vitest';
import { AppError } from '@guest/http-kit';
import { normalizeProfileText } from './rules.ts';

const ctx = { today: '2026-11-21', knownCurrencies: new Set(['THB', 'USD']) };

function refusal(input: Record<string, unknown>): { field: unknown; reason: unknown } {
  try {
    normalizeProfileText(input, ctx);
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    const e = err as AppError;
    expect(e.code).toBe('validation_error');
    return { field: e.details.field, reason: e.details.reason };
  }
  throw new Error(`accepted ${JSON.stringify(input)}`);
}

describe('profile field rules', () => {
  it('leaves unsent fields out, clears null and blank ones, normalises the rest', () => {
    expect(normalizeProfileText({}, ctx)).toEqual({});
    expect(
      normalizeProfileText(
        {
          phone: '+1 (415) 555-2671',
          citizenship: 'th',
          language: 'ZH-hans',
          currency: 'thb',
          gender: 'Female',
          billing_address: '',
        },
        ctx,
      ),
    ).toEqual({
      phone: '+14155552671',
      citizenship: 'TH',
      language: 'zh-Hans',
      currency: 'THB',
      gender: 'female',
      billingAddress: null,
    });
    expect(normalizeProfileText({ birth_date: null, residence_country: '  ' }, ctx)).toEqual({
      birthDate: null,
      residenceCountry: null,
    });
  });

  it('accepts the edges: 1900-01-01, today, a leap day', () => {
    for (const d of ['1900-01-01', '2026-11-21', '2000-02-29']) {
      expect(normalizeProfileText({ birth_date: d }, ctx).birthDate).toBe(d);
    }
  });

  it('refuses each broken rule naming the field and why', () => {
    expect(refusal({ birth_date: '2001-02-29' })).toEqual({ field: 'birth_date', reason: 'not_a_day' });
    expect(refusal({ birth_date: '1899-12-31' })).toEqual({ field: 'birth_date', reason: 'too_early' });
    expect(refusal({ birth_date: '2026-11-22' })).toEqual({ field: 'birth_date', reason: 'in_future' });
    expect(refusal({ birth_date: '2026-1-2' })).toEqual({ field: 'birth_date', reason: 'format' });
    expect(refusal({ phone: '+0123456789' })).toEqual({ field: 'phone', reason: 'not_e164' });
    expect(refusal({ phone: '+1234567' })).toEqual({ field: 'phone', reason: 'not_e164' });
    expect(refusal({ citizenship: 'UK' })).toEqual({ field: 'citizenship', reason: 'unknown_country' });
    expect(refusal({ residence_country: 'EU' })).toEqual({ field: 'residence_country', reason: 'unknown_country' });
    expect(refusal({ language: 'zh' })).toEqual({ field: 'language', reason: 'unsupported' });
    expect(refusal({ currency: 'EUR' })).toEqual({ field: 'currency', reason: 'unknown_currency' });
  });
});
