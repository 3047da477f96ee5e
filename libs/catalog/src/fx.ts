/** Base currency of the marketplace: prices are also stored normalised to it for sorting. */
export const BASE_CURRENCY = 'THB';

export interface FxTable {
  base: string;
  /** Units of the quoted currency for one unit of `base` (e.g. THB→USD 0.0281). */
  rates: Record<string, number>;
  /** Minor units per currency code (2 for THB, USD, EUR, RUB, CNY); missing means 2. */
  minorUnits?: Record<string, number>;
}

/**
 * Converts an amount in minor units of `currency` into minor units of `to`, through the table's
 * base. Null when a rate is missing: a listing without a known rate keeps its own price but
 * cannot be compared across currencies. Rounded to whole minor units: rates are a hint only.
 */
export function convertMinor(amountMinor: number, currency: string, to: string, fx: FxTable): number | null {
  if (currency === to) return amountMinor;
  const rateOf = (code: string) => (code === fx.base ? 1 : fx.rates[code]);
  const fromRate = rateOf(currency);
  const toRate = rateOf(to);
  if (!fromRate || !toRate) return null;
  const fromDigits = fx.minorUnits?.[currency] ?? 2;
  const toDigits = fx.minorUnits?.[to] ?? 2;
  const major = amountMinor / 10 ** fromDigits;
  return Math.round((major / fromRate) * toRate * 10 ** toDigits);
}

/**
 * A price in minor units of the base currency (`price_base_minor` in the index), for sorting and
 * price filters across currencies: converted through `fx`; before any FX table exists, a price in
 * the base currency as it is. Null when it cannot be compared (no rate for its currency).
 */
export function basePriceMinor(amountMinor: number, currency: string, fx: FxTable | null): number | null {
  if (fx) return convertMinor(amountMinor, currency, BASE_CURRENCY, fx);
  return currency === BASE_CURRENCY ? amountMinor : null;
}
