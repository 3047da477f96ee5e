import { createHash } from 'node:crypto';
import { errors } from '@guest/http-kit';
import type { EventFilterQuery } from './params.ts';
import type { EventFilters, EventScope } from './query.ts';
import { todayIn } from '@guest/catalog';
import { listWindow, type DayFilters, type DayWindow } from './window.ts';

/** Filters of a request, as the engine queries take them (the parameters' rules were checked on parsing). */
export function resolveFilters(q: EventFilterQuery): EventFilters {
  return {
    categories: q.category,
    entry: q.entry,
    time: q.time,
    audience: q.audience,
    crowd: q.crowd,
    eventLang: q.event_lang,
    q: q.q,
    bbox: q.bbox,
    // `near` alone filters nothing, as in the listings search: only `radius_m` draws the circle.
    near: q.near && q.radius_m !== undefined ? { ...q.near, radiusM: q.radius_m } : undefined,
  };
}

/** "Today" in the request's zone, from the injected clock. */
export function requestToday(now: Date, q: Pick<EventFilterQuery, 'timezone'>): string {
  return todayIn(q.timezone, now);
}

export function scopeOf(filters: EventFilters, window: DayWindow, today: string, now: Date): EventScope {
  return { filters, window, today, now };
}

/**
 * The scope of a list (upcoming, the by-day feed) as of the instant `now`: today in the request's
 * zone, the window of days from it, and today's already-ended cut-off at `now`. A list's first page
 * reads it at the clock; its later pages at the instant carried in their cursor, so that the whole
 * list is one consistent answer (no event or occurrence repeated or skipped when an occurrence
 * ends, or local midnight passes, between two pages). Null when nothing is left of the window.
 *
 * Limit: occurrences that leave the index between two pages (the indexer's horizon roll deletes
 * those that are over and began before the venue's today) are gone for the later pages too: in
 * upcoming, an event whose card was such an occurrence, and that has a later one past the cursor,
 * would be listed again; in the feed, such an occurrence past the cursor is left out. That needs a
 * list continued after midnight and after the roll that followed it.
 */
export function listScopeAt(
  filters: EventFilters,
  q: DayFilters & Pick<EventFilterQuery, 'timezone'> & { days: number },
  now: Date,
  horizonDays: number,
): EventScope | null {
  const today = requestToday(now, q);
  const window = listWindow(q, today, horizonDays);
  return window ? scopeOf(filters, window, today, now) : null;
}

/**
 * A cursor continues the list it came from: it carries a hash of the filters, window and today,
 * and is refused (400 on `cursor`) when the next request asks for something else. A list read as
 * of its first page's instant (`listScopeAt`) hashes the scope at that instant, so the clock
 * moving on (past midnight too) does not make its cursor foreign.
 */
export function listFingerprint(scope: EventScope, extra: unknown = null): string {
  return createHash('sha256')
    .update(JSON.stringify([scope.filters, scope.window, scope.today, extra]))
    .digest('base64url')
    .slice(0, 16);
}

/** 400 on `cursor` for a signed cursor whose payload is not this list's shape (an older format). */
export function malformedCursor() {
  return errors.validation('cursor', 'The cursor is not valid for this list; start again without it.', {
    reason: 'malformed',
  });
}

export function checkFingerprint(expected: string, got: unknown): void {
  if (got !== expected) {
    throw errors.validation('cursor', 'The cursor belongs to a list with other filters; start again without it.', {
      reason: 'foreign',
    });
  }
}
