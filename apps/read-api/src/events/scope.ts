import { createHash } from 'node:crypto';
import { errors } from '@guest/http-kit';
import type { Config } from '@guest/config';
import type { EventFilterQuery } from './params.ts';
import type { EventFilters, EventScope } from './query.ts';
import { todayIn, type DayWindow } from './window.ts';

/** Filters of a request, with the cross-field rules checked (400 `validation_error` names the field). */
export function resolveFilters(
  q: EventFilterQuery,
  config: Pick<Config, 'EVENTS_NEAR_RADIUS_DEFAULT_M'>,
): EventFilters {
  if (q.radius_m !== undefined && !q.near) throw errors.validation('radius_m', '`radius_m` needs `near`.');
  return {
    categories: q.category,
    entry: q.entry,
    time: q.time,
    audience: q.audience,
    crowd: q.crowd,
    eventLang: q.event_lang,
    q: q.q,
    bbox: q.bbox,
    near: q.near ? { ...q.near, radiusM: q.radius_m ?? config.EVENTS_NEAR_RADIUS_DEFAULT_M } : undefined,
  };
}

/** "Today" in the request's zone, from the injected clock. */
export function requestToday(now: Date, q: Pick<EventFilterQuery, 'timezone'>): string {
  return todayIn(now, q.timezone);
}

export function scopeOf(filters: EventFilters, window: DayWindow, today: string, now: Date): EventScope {
  return { filters, window, today, now };
}

/**
 * A cursor continues the list it came from: it carries a hash of the filters and window, and is
 * refused (400 on `cursor`) when the next request asks for something else.
 */
export function listFingerprint(scope: EventScope, extra: unknown = null): string {
  return createHash('sha256')
    .update(JSON.stringify([scope.filters, scope.window, scope.today, extra]))
    .digest('base64url')
    .slice(0, 16);
}

export function checkFingerprint(expected: string, got: unknown): void {
  if (got !== expected) {
    throw errors.validation('cursor', 'The cursor belongs to a list with other filters; start again without it.', {
      reason: 'foreign',
    });
  }
}
