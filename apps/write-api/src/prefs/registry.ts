import type { PrefOverrides } from '@guest/db/schema';

/**
 * DESIGN G6b: the one registry of email and push preference codes, in groups. Codes are dotted
 * (`booking.reminder`). Marketing codes default to the account's `marketing_opt_in`; every other
 * code defaults on. Emails that answer the person's own action (email confirmation, password
 * reset, account deletion: `account.*`) are always sent and are deliberately not listed here, so
 * they never appear in the settings and cannot be turned off.
 */
export type PrefChannel = 'email' | 'push';

export interface PrefCodeDef {
  code: string;
  marketing: boolean;
}

export interface PrefGroupDef {
  code: string;
  items: PrefCodeDef[];
}

const item = (code: string, marketing = false): PrefCodeDef => ({ code, marketing });

export const PREF_REGISTRY: Record<PrefChannel, PrefGroupDef[]> = {
  email: [
    { code: 'booking', items: [item('booking.status'), item('booking.reminder')] },
    { code: 'messages', items: [item('message.unread_digest')] },
    { code: 'reviews', items: [item('review.request')] },
    { code: 'marketing', items: [item('marketing.news', true), item('marketing.offers', true)] },
  ],
  push: [
    { code: 'messages', items: [item('message.new')] },
    { code: 'booking', items: [item('booking.status'), item('booking.reminder')] },
    { code: 'events', items: [item('event.reminder')] },
    { code: 'reviews', items: [item('review.request')] },
    { code: 'marketing', items: [item('marketing.offers', true)] },
  ],
};

/** Emails that answer the person's own action: always sent, never in the settings (spec 6.4). */
export const OWN_ACTION_EMAIL_PREFIX = 'account.';

const codeIndex: Record<PrefChannel, Map<string, PrefCodeDef>> = {
  email: new Map(PREF_REGISTRY.email.flatMap((g) => g.items.map((i) => [i.code, i] as const))),
  push: new Map(PREF_REGISTRY.push.flatMap((g) => g.items.map((i) => [i.code, i] as const))),
};

export function isKnownPref(channel: PrefChannel, code: string): boolean {
  return codeIndex[channel].has(code);
}

/** Codes of `prefs` that the registry does not know, in the order given. */
export function unknownPrefCodes(channel: PrefChannel, prefs: Record<string, boolean>): string[] {
  return Object.keys(prefs).filter((c) => !isKnownPref(channel, c));
}

export interface PrefItemView {
  code: string;
  enabled: boolean;
  default: boolean;
  marketing: boolean;
}

export interface PrefGroupView {
  code: string;
  items: PrefItemView[];
}

function defaultOf(def: PrefCodeDef, marketingOptIn: boolean): boolean {
  return def.marketing ? marketingOptIn : true;
}

/** The groups as a guest sees them: stored overrides where present, registry defaults elsewhere. */
export function prefGroups(channel: PrefChannel, overrides: PrefOverrides, marketingOptIn: boolean): PrefGroupView[] {
  return PREF_REGISTRY[channel].map((g) => ({
    code: g.code,
    items: g.items.map((def) => {
      const d = defaultOf(def, marketingOptIn);
      return { code: def.code, enabled: overrides[def.code] ?? d, default: d, marketing: def.marketing };
    }),
  }));
}

export interface DeliveryState {
  /** `notify_email` for email, the push master switch for push. */
  masterEnabled: boolean;
  overrides: PrefOverrides;
  marketingOptIn: boolean;
}

/**
 * Whether a message of `code` may be sent: own-action emails always; registry codes when the
 * master switch is on and the code is enabled; anything else (an unknown code) never.
 */
export function mayDeliver(channel: PrefChannel, code: string, state: DeliveryState): boolean {
  if (channel === 'email' && code.startsWith(OWN_ACTION_EMAIL_PREFIX)) return true;
  const def = codeIndex[channel].get(code);
  if (!def || !state.masterEnabled) return false;
  return state.overrides[code] ?? defaultOf(def, state.marketingOptIn);
}
