/**
 * Amounts in another currency, from the API's FX rates (`/v1/fx/rates`: a hint only, so every
 * converted amount is shown as approximate). Pure: the rates are given.
 */
export interface FxRates {
  base: string;
  rates: Record<string, number>;
}

/** Minor units per major unit of a currency (ISO 4217, as the browser knows it). */
export function minorDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

/** `minor` of `from` in minor units of `to`; null when a rate is missing. */
export function convertMinor(fx: FxRates | null, minor: number, from: string, to: string): number | null {
  if (from === to) return minor;
  if (!fx) return null;
  const rate = (c: string) => (c === fx.base ? 1 : fx.rates[c]);
  const rf = rate(from);
  const rt = rate(to);
  if (!rf || !rt) return null;
  return Math.round((minor / 10 ** minorDigits(from) / rf) * rt * 10 ** minorDigits(to));
}

/**
 * The price limits of the URL read in `from`, converted to `to` when the guest changes the
 * currency: the same amount of money, not the same number. A limit without a rate is dropped.
 */
export function convertLimits(
  fx: FxRates | null,
  limits: { price_min: number | null; price_max: number | null },
  from: string,
  to: string,
): { price_min: number | null; price_max: number | null } {
  const one = (v: number | null) => (v === null ? null : convertMinor(fx, v, from, to));
  return { price_min: one(limits.price_min), price_max: one(limits.price_max) };
}
