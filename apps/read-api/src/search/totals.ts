/**
 * The price of a whole stay or rental for the dates a guest searched, on a card: listings priced
 * per night or per day pay each night (`date_to` is the day of leaving, not paid), those priced
 * per month pay its share of a 30-night month. Other units (a person, an hour, a trip, an item)
 * do not follow the dates: no total.
 */
export const NIGHTS_A_MONTH = 30;

export interface CardTotal {
  nights: number;
  total_minor: number;
  currency: string;
}

/** Nights from `from` to `to` (exclusive), at least one: without `to` the one day `from`. */
export function nightsBetween(from: string, to: string | undefined): number {
  if (!to) return 1;
  const ms = Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`);
  return Math.max(1, Math.round(ms / 86_400_000));
}

export function cardTotal(
  price: { price_minor: number; currency: string; price_unit: string },
  nights: number,
): CardTotal | null {
  let total: number;
  switch (price.price_unit) {
    case 'night':
    case 'day':
      total = price.price_minor * nights;
      break;
    case 'month':
      total = Math.round((price.price_minor * nights) / NIGHTS_A_MONTH);
      break;
    default:
      return null;
  }
  return { nights, total_minor: total, currency: price.currency };
}
