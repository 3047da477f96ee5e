import { appConfig, fxRatesOf } from './config.ts';
import { convertMinor, minorDigits as digits } from './fx.ts';
import { currentLang, t } from './i18n.ts';

export function money(minor: number, currency: string): string {
  const d = digits(currency);
  return new Intl.NumberFormat(currentLang(), { style: 'currency', currency, maximumFractionDigits: 0 }).format(
    minor / 10 ** d,
  );
}

/** The currency amounts are shown in: the one the guest chose, else the base currency. */
export function displayCurrency(chosen: string | null | undefined): string {
  return chosen || appConfig?.base_currency || 'THB';
}

/** `minor` of `from` in minor units of `to` with the page's FX rates; null when no rate is known. */
export function convertAmount(minor: number, from: string, to: string): number | null {
  return convertMinor(fxRatesOf(), minor, from, to);
}

/**
 * A price in the currency the guest chose: converted with the API's FX rates (a hint only, spec
 * 4.5), so it is marked approximate, once ("≈ $73"; the long word is the title); null when no
 * rate is known.
 */
export function converted(minor: number, from: string, to: string): { text: string; approximate: boolean } | null {
  if (!to || to === from) return { text: money(minor, from), approximate: false };
  const amount = convertAmount(minor, from, to);
  if (amount === null) return null;
  return { text: `≈ ${money(amount, to)}`, approximate: true };
}

/**
 * A price as the page shows it: in the one display currency (the guest's choice, else the base
 * currency) when there is a rate, else in its own. Pins, cards and the price filter all use it,
 * so no two prices on the screen are in different currencies.
 */
export function shownPrice(minor: number, from: string, chosen: string | null): { text: string; approximate: boolean } {
  return converted(minor, from, displayCurrency(chosen)) ?? { text: money(minor, from), approximate: false };
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
