import { addDays, epochDay, type PRICE_UNITS } from '@guest/catalog';
import { NIGHTS_A_MONTH } from '../search/totals.ts';

/**
 * The listing page's calendar and the price of a stay, pure: the blocked ranges of the window
 * the page shows, whether a stay is free and what it costs. Days are ISO dates; ranges are
 * `[from, to)` (the last day exclusive), as the index keeps them.
 */

export type PriceUnit = (typeof PRICE_UNITS)[number];

export interface DayRange {
  from: string;
  to: string;
}

/** The ranges that touch `[from, to)`, clipped to it, earliest first, overlapping or touching ones merged. */
export function blockedWithin(blocked: ReadonlyArray<{ gte: string; lt: string }>, window: DayRange): DayRange[] {
  const clipped = blocked
    .map((b) => ({ from: b.gte > window.from ? b.gte : window.from, to: b.lt < window.to ? b.lt : window.to }))
    .filter((r) => r.from < r.to)
    .sort((a, b) => (a.from < b.from ? -1 : a.from > b.from ? 1 : 0));
  const merged: DayRange[] = [];
  for (const r of clipped) {
    const last = merged.at(-1);
    if (last && r.from <= last.to) {
      if (r.to > last.to) last.to = r.to;
    } else merged.push({ ...r });
  }
  return merged;
}

/**
 * How many times the price is counted for a stay of `nights` days and `guests` guests:
 * `night` and `day` once a day; `month` a 30-night month's share a night (as the feed's card
 * totals, `search/totals.ts`, so the card and the page agree); `person` once per guest (the
 * whole activity, whatever its length); `hour` once per started hour of the listing's duration
 * (one hour when it has none); `trip` and `item` once.
 */
export function priceUnits(unit: PriceUnit, nights: number, guests: number, durationMin: number | null): number {
  switch (unit) {
    case 'night':
    case 'day':
      return nights;
    case 'month':
      return nights / NIGHTS_A_MONTH;
    case 'person':
      return guests;
    case 'hour':
      return durationMin ? Math.ceil(durationMin / 60) : 1;
    case 'trip':
    case 'item':
      return 1;
  }
}

export interface StayQuestion {
  from: string;
  /** Exclusive; `from` + 1 day when the request gave none. */
  to: string;
  guests: number;
}

export interface StayAnswer {
  free: boolean;
  reason: 'blocked' | 'over_capacity' | null;
  nights: number;
  units: number;
  total_minor: number;
}

/** Whether the stay is free (no blocked day in it, the guests fit) and its total in the listing's currency. */
export function priceStay(
  stay: StayQuestion,
  listing: {
    blocked: ReadonlyArray<{ gte: string; lt: string }>;
    capacity: number | null;
    price_minor: number;
    unit: PriceUnit;
    duration_min: number | null;
  },
): StayAnswer {
  const nights = epochDay(stay.to) - epochDay(stay.from);
  const clash = listing.blocked.some((b) => b.gte < stay.to && b.lt > stay.from);
  const over = listing.capacity !== null && stay.guests > listing.capacity;
  const units = priceUnits(listing.unit, nights, stay.guests, listing.duration_min);
  return {
    free: !clash && !over,
    reason: clash ? 'blocked' : over ? 'over_capacity' : null,
    nights,
    units,
    // Rounded as the card's total is: the price of the nights, then whole minor units.
    total_minor:
      listing.unit === 'month'
        ? Math.round((listing.price_minor * nights) / NIGHTS_A_MONTH)
        : units * listing.price_minor,
  };
}

/** The calendar window: `days` days from `today`. */
export function calendarWindow(today: string, days: number): DayRange {
  return { from: today, to: addDays(today, days) };
}
