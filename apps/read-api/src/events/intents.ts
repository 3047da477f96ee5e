import { addDays, epochDay, isoWeekday } from '@guest/catalog';
import type { QueryPlan } from '../query-understanding/understand.ts';
import type { EventFilters } from './query.ts';
import type { DayFilters } from './window.ts';

/**
 * The intents of `q` (mappings/intents.json) that the events routes understand: entry (free),
 * time of day (evening), audience (family), a category (nightlife) and days (today, tomorrow,
 * this weekend, this week).
 * A filter the client sent itself wins. Pure: plan and filters in, filters out.
 */

export interface EventIntents {
  filters: EventFilters;
  /** Days the intents name, when the client named none. */
  days: DayFilters | null;
  /** Whether the intents select something (then the query's other words only narrow when they match). */
  binds: boolean;
}

/** The days a day intent names, from `today` (venue zone). */
function daysOf(name: string, today: string): DayFilters | null {
  switch (name) {
    case 'today':
      return { day: today };
    case 'tomorrow':
      return { day: addDays(today, 1) };
    case 'weekend': {
      // isoWeekday: 1 = Monday … 7 = Sunday. On a Sunday, that Sunday.
      const wd = isoWeekday(epochDay(today));
      if (wd === 7) return { day: today };
      const saturday = addDays(today, 6 - wd);
      return { day_from: saturday, day_to: addDays(saturday, 1) };
    }
    case 'week':
      return { day_from: today, day_to: addDays(today, 6) };
    default:
      return null;
  }
}

export function applyEventIntents(filters: EventFilters, client: DayFilters, today: string): EventIntents {
  const plan: QueryPlan | null | undefined = filters.plan;
  const out: EventFilters = { ...filters };
  let days: DayFilters | null = null;
  let binds = false;
  const clientDays = !!(client.day || client.day_from || client.day_to);
  for (const { effect } of plan?.intents ?? []) {
    const e = effect.events;
    if (!e) continue;
    binds = true;
    if (e.entry && out.entry === 'any' && (e.entry === 'free' || e.entry === 'paid')) out.entry = e.entry;
    if (e.time && out.time === 'any' && (e.time === 'morning' || e.time === 'day' || e.time === 'evening'))
      out.time = e.time;
    if (e.audience && out.audience === 'any' && (e.audience === 'family' || e.audience === 'adults')) {
      out.audience = e.audience;
    }
    if (e.category && !filters.categories?.length)
      out.categories = [...new Set([...(out.categories ?? []), e.category])];
    if (e.day && !clientDays && !days) days = daysOf(e.day, today);
  }
  return { filters: { ...out, intentsBind: binds }, days, binds };
}
