import { fxRates } from './config.ts';
import { currentLang, t } from './i18n.ts';

/** Minor units per major unit of each currency the page may show (ISO 4217). */
const digits = (currency: string) =>
  new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;

export function money(minor: number, currency: string): string {
  const d = digits(currency);
  return new Intl.NumberFormat(currentLang(), { style: 'currency', currency, maximumFractionDigits: 0 }).format(
    minor / 10 ** d,
  );
}

/**
 * A price in the currency the guest chose: converted with the API's FX rates (a hint only, spec
 * 4.5), so it is marked approximate; null when no rate is known.
 */
export function converted(minor: number, from: string, to: string): { text: string; approximate: boolean } | null {
  if (!to || to === from) return { text: money(minor, from), approximate: false };
  const rates = fxRates?.rates as Record<string, number> | undefined;
  const base = fxRates?.base;
  if (!rates || !base) return null;
  const rate = (c: string) => (c === base ? 1 : rates[c]);
  const rf = rate(from);
  const rt = rate(to);
  if (!rf || !rt) return null;
  const major = (minor / 10 ** digits(from) / rf) * rt;
  return { text: `≈ ${money(Math.round(major * 10 ** digits(to)), to)}`, approximate: true };
}

export function dayLabel(
  date: string,
  opts: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric' },
): string {
  return new Intl.DateTimeFormat(currentLang(), { ...opts, timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
}

export function priceUnit(unit: string): string {
  return t(`listing.price_unit.${unit}`);
}
