import { describe, expect, it } from 'vitest';
import { mayDeliver, PREF_REGISTRY, prefGroups, unknownPrefCodes } from './registry.ts';

describe('preference registry (DESIGN G6b)', () => {
  it('uses dotted codes, each listed once per channel, and has no own-action emails', () => {
    for (const channel of ['email', 'push'] as const) {
      const codes = PREF_REGISTRY[channel].flatMap((g) => g.items.map((i) => i.code));
      expect(new Set(codes).size).toBe(codes.length);
      for (const c of codes) expect(c).toMatch(/^[a-z_]+(\.[a-z_]+)+$/);
      expect(codes.filter((c) => c.startsWith('account.'))).toEqual([]);
    }
    expect(PREF_REGISTRY.email.flatMap((g) => g.items.map((i) => i.code))).toEqual(
      expect.arrayContaining(['booking.reminder', 'booking.status', 'review.request', 'marketing.news']),
    );
    expect(PREF_REGISTRY.push.flatMap((g) => g.items.map((i) => i.code))).toEqual(
      expect.arrayContaining(['message.new', 'booking.status', 'event.reminder', 'marketing.offers']),
    );
  });

  it('defaults: marketing follows the opt-in, everything else on; overrides win', () => {
    const view = (optIn: boolean, o = {}) =>
      Object.fromEntries(prefGroups('email', o, optIn).flatMap((g) => g.items.map((i) => [i.code, i.enabled])));
    expect(view(false)['marketing.news']).toBe(false);
    expect(view(true)['marketing.news']).toBe(true);
    expect(view(false)['booking.reminder']).toBe(true);
    expect(view(false, { 'booking.reminder': false, 'marketing.news': true })).toMatchObject({
      'booking.reminder': false,
      'marketing.news': true,
    });
  });

  it('names unknown codes per channel', () => {
    expect(unknownPrefCodes('email', { 'booking.status': true, 'message.new': false, x: true })).toEqual([
      'message.new',
      'x',
    ]);
    expect(unknownPrefCodes('push', { 'message.new': false })).toEqual([]);
  });

  it('delivery: own-action emails always; otherwise the master switch and the code decide', () => {
    const state = { masterEnabled: false, overrides: {}, marketingOptIn: false };
    expect(mayDeliver('email', 'account.password_reset', state)).toBe(true);
    expect(mayDeliver('email', 'booking.status', state)).toBe(false);
    expect(mayDeliver('email', 'booking.status', { ...state, masterEnabled: true })).toBe(true);
    expect(mayDeliver('push', 'marketing.offers', { ...state, masterEnabled: true })).toBe(false);
    expect(mayDeliver('push', 'marketing.offers', { ...state, masterEnabled: true, marketingOptIn: true })).toBe(true);
    expect(
      mayDeliver('push', 'message.new', { ...state, masterEnabled: true, overrides: { 'message.new': false } }),
    ).toBe(false);
    // Any push can be turned off; an own-action code is not a push code.
    expect(mayDeliver('push', 'account.password_reset', { ...state, masterEnabled: true })).toBe(false);
  });
});
