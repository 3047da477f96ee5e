import type { Config } from '@guest/config';
import { errors, type CursorCodec } from '@guest/http-kit';
import type { ContentLanguage, EventOccurrenceDocument } from '@guest/catalog';
import type { Clock } from '@guest/runtime';
import type { SearchEngine } from '@guest/search-engine';
import { CLUSTER_MAX_ZOOM, parseClusters, type CellBucket } from '../geo/clusters.ts';
import { textIn, toEventCard, toEventPoint, type EventPointSource } from './card.ts';
import {
  calendarQuery,
  EVENT_MAP_MAX_CELLS,
  eventPageQuery,
  feedQuery,
  mapQuery,
  nearestQuery,
  upcomingFirstPageQuery,
  upcomingQuery,
  unseenEventIds,
  localStartKey,
  eventRelaxedWords,
  relaxedWordsQuery,
  type EventFilters,
  type EventScope,
  type UpcomingAfter,
} from './query.ts';
import type { EventFilterQuery } from './params.ts';
import type { QueryUnderstanding } from '../query-understanding/service.ts';
import { resumeList, safeInts } from './list-cursor.ts';
import { listScopeAt, requestToday, resolveFilters } from './scope.ts';
import type { EventCardT } from './schemas.ts';
import { calendarWindow, checkDayFilters, daysBetween, listWindow, type DayFilters } from './window.ts';
import { applyEventIntents } from './intents.ts';

/** The last day a `YYYY-MM-DD` can name: a strip running past it would hold unwritable dates. */
const LAST_DAY = '9999-12-31';

/** What the events service needs, given by whoever builds it (the app, a bench, a test). */
export interface EventsServiceDeps {
  engine: SearchEngine;
  /** Alias of the events index. */
  index: string;
  cursors: CursorCodec;
  clock: Clock;
  config: Pick<Config, 'EVENTS_HORIZON_DAYS' | 'MAP_MAX_POINTS' | 'EVENT_PAGE_OCCURRENCES'>;
  /** What `q` asks for: the same reading as the listings search. */
  understanding: Pick<QueryUnderstanding, 'plan'>;
}

export type CalendarRequest = EventFilterQuery & { first?: string | undefined; days: number };
export type UpcomingRequest = EventFilterQuery & { limit: number; days: number; with_total: boolean };
export type EventFeedRequest = EventFilterQuery & { limit: number; days: number };
export type EventMapRequest = EventFilterQuery & { zoom: number; days: number };

export type EventsService = ReturnType<typeof createEventsService>;

/**
 * The events of spec 4.8 (calendar, upcoming, the by-day feed, the map, an event's page): every
 * engine request of `/v1/events/*`. Pure builders (`query.ts`) make the bodies; this runs them,
 * checks the cross-field rules of a request and shapes the answers.
 */
export function createEventsService(deps: EventsServiceDeps) {
  const { config, clock } = deps;
  /**
   * The filters with what their `q` asks for (after the request's own checks): its plan, its
   * intents (free, evening, family, this weekend…; the client's own filters win), and which of
   * its relaxed words narrow the list (those some event in reach has; the others are reported
   * unmatched). `days` are the request's day filters, or the days an intent names.
   */
  async function understood<Q extends DayFilters & Pick<EventFilterQuery, 'timezone'> & { days?: number }>(
    base: EventFilters,
    q: Q,
  ): Promise<{ filters: EventFilters; q: Q; unmatched: string[] }> {
    const now = clock.now();
    const today = requestToday(now, q);
    const intents = applyEventIntents({ ...base, plan: await deps.understanding.plan(base.q) }, q, today);
    const days: Q = intents.days ? { ...q, ...intents.days } : q;
    let filters = intents.filters;
    if (filters.plan?.elsewhere.length) return { filters, q: days, unmatched: filters.plan.elsewhere };
    const relaxed = eventRelaxedWords(filters);
    if (!relaxed.length) return { filters, q: days, unmatched: [] };
    const window = listWindow(
      { ...days, days: days.days ?? config.EVENTS_HORIZON_DAYS },
      today,
      config.EVENTS_HORIZON_DAYS,
    );
    if (!window) return { filters, q: days, unmatched: relaxed.map((w) => w.text) };
    const res = await deps.engine.search(deps.index, relaxedWordsQuery({ filters, window, today, now }, relaxed));
    const buckets = (res.aggregations?.words?.buckets ?? {}) as Record<string, { doc_count: number }>;
    const has = (i: number) => (buckets[`w${i}`]?.doc_count ?? 0) > 0;
    filters = { ...filters, keptWords: relaxed.filter((_, i) => has(i)).map((w) => w.text) };
    return { filters, q: days, unmatched: relaxed.filter((_, i) => !has(i)).map((w) => w.text) };
  }
  return {
    /** The calendar strip: distinct events per day from `first` (default today), `days` long. */
    async calendar(q: CalendarRequest) {
      checkDayFilters(q);
      const now = clock.now();
      const today = requestToday(now, q);
      const { filters } = await understood(resolveFilters(q), q);
      // The index keeps no occurrence that is over (the horizon roll deletes them), so a strip
      // starting before today would show 0 for days that had events: refused rather than wrong.
      if (q.first !== undefined && q.first < today) {
        throw errors.validation('first', `\`first\` must not be before today (${today} in ${q.timezone}).`, {
          reason: 'before_today',
        });
      }
      if (q.first !== undefined && daysBetween(q.first, LAST_DAY) < q.days - 1) {
        throw errors.validation('first', `The strip of ${q.days} days from \`first\` would run past ${LAST_DAY}.`, {
          reason: 'after_last_day',
        });
      }
      const days = await loadCalendar(deps, { filters, today, now }, q.first ?? today, q.days);
      return { days, timezone: q.timezone, today };
    },

    /** One card per event at its nearest matching occurrence, keyset-paged. */
    async upcoming(q: UpcomingRequest, lang: ContentLanguage) {
      // Cross-field rules first (400 names the field), whatever the cursor.
      checkDayFilters(q);
      const { filters, q: days, unmatched } = await understood(resolveFilters(q), q);
      const page = await loadUpcoming(deps, (now) => listScopeAt(filters, days, now, config.EVENTS_HORIZON_DAYS), {
        limit: q.limit,
        cursor: q.cursor,
        withTotal: q.with_total,
        lang,
      });
      return { ...page, unmatched_terms: unmatched };
    },

    /** Every matching occurrence on its day, grouped per day, keyset-paged. */
    async feed(q: EventFeedRequest, lang: ContentLanguage) {
      // Cross-field rules first (400 names the field), whatever the cursor.
      checkDayFilters(q);
      const { filters, q: days, unmatched } = await understood(resolveFilters(q), q);
      const page = await loadFeed(deps, (now) => listScopeAt(filters, days, now, config.EVENTS_HORIZON_DAYS), {
        limit: q.limit,
        cursor: q.cursor,
        lang,
      });
      return { ...page, unmatched_terms: unmatched };
    },

    /** Clusters of distinct events up to the cluster zoom, one point per event beyond. */
    async map(q: EventMapRequest, lang: ContentLanguage) {
      const now = clock.now();
      const today = requestToday(now, q);
      const { filters, q: days } = await understood(resolveFilters(q), q);
      const window = listWindow(days, today, config.EVENTS_HORIZON_DAYS);
      return loadMap(deps, window ? { filters, window, today, now } : null, q.zoom, lang);
    },

    /** An event's card at its next occurrence, its description and next occurrences; null when none. */
    page: (slug: string, lang: ContentLanguage) => loadEventPage(deps, slug, lang),
  };
}

async function loadCalendar(
  deps: EventsServiceDeps,
  scopeBase: Omit<EventScope, 'window'>,
  first: string,
  days: number,
): Promise<Array<{ date: string; count: number }>> {
  const { strip, read } = calendarWindow(first, days, scopeBase.today, deps.config.EVENTS_HORIZON_DAYS);
  const counts = new Map<string, number>();
  if (read) {
    const res = await deps.engine.search(deps.index, calendarQuery({ ...scopeBase, window: read }));
    for (const b of res.aggregations?.days?.buckets ?? []) counts.set(b.key_as_string, b.events.value);
    // Today counts the events still on from yesterday too (see `windowClause`).
    if (read.from === scopeBase.today) counts.set(scopeBase.today, res.aggregations?.today?.events?.value ?? 0);
  }
  return strip.map((date) => ({ date, count: counts.get(date) ?? 0 }));
}

/** Position after the last card of an upcoming page: its local start key and event id. */
const isUpcomingPosition = (o: Record<string, unknown>) => safeInts(o.k, o.id);

/**
 * The upcoming list (spec 4.8, upcoming rules), keyset-paged and read as of its first page:
 * `scopeAt` gives its scope as of an instant (`resumeList`).
 */
async function loadUpcoming(
  deps: EventsServiceDeps,
  scopeAt: (now: Date) => EventScope | null,
  opts: { limit: number; cursor?: string | undefined; withTotal: boolean; lang: ContentLanguage },
) {
  const empty = { items: [], next_cursor: null, has_more: false, total: opts.withTotal ? 0 : null };
  const list = resumeList<UpcomingAfter>(deps, 'upcoming', opts.cursor, isUpcomingPosition, scopeAt);
  const { scope, position } = list;
  if (!scope) return empty;
  const after: UpcomingAfter | undefined = position && { k: position.k, id: position.id };
  const cursorOf = (card: EventCardT) => list.cursorAfter({ k: localStartKey(card.day, card.start_time), id: card.id });
  if (!after) {
    // First page: one collapse query gives the cards directly.
    const res = await deps.engine.search<EventOccurrenceDocument>(
      deps.index,
      upcomingFirstPageQuery(scope, { limit: opts.limit, withTotal: opts.withTotal }),
    );
    const hasMore = res.hits.length > opts.limit;
    const cards = res.hits.slice(0, opts.limit).map((hit) => toEventCard(hit._source, opts.lang));
    const last = cards.at(-1);
    return {
      items: cards,
      has_more: hasMore,
      next_cursor: hasMore && last ? cursorOf(last) : null,
      total: opts.withTotal ? (res.aggregations?.total?.value ?? 0) : null,
    };
  }
  const res = await deps.engine.search(
    deps.index,
    upcomingQuery(scope, { limit: opts.limit, after, withTotal: opts.withTotal }),
  );
  const ids = unseenEventIds(res.aggregations?.events?.buckets ?? []);
  const hasMore = ids.length > opts.limit;
  const cards = await nearestCards(deps, scope, ids.slice(0, opts.limit), opts.lang);
  const last = cards.at(-1);
  return {
    items: cards,
    has_more: hasMore,
    next_cursor: hasMore && last ? cursorOf(last) : null,
    total: opts.withTotal ? (res.aggregations?.total?.value ?? 0) : null,
  };
}

async function nearestCards(
  deps: EventsServiceDeps,
  scope: EventScope,
  ids: number[],
  lang: ContentLanguage,
): Promise<EventCardT[]> {
  if (!ids.length) return [];
  const res = await deps.engine.search<EventOccurrenceDocument>(deps.index, nearestQuery(scope, ids));
  const byId = new Map(res.hits.map((h) => [h._source.event_id, h._source]));
  return ids.flatMap((id) => {
    const doc = byId.get(id);
    return doc ? [toEventCard(doc, lang)] : [];
  });
}

/**
 * Position after the last card of a feed page: the sort values of the last occurrence
 * (`OCCURRENCE_SORT`: day in epoch ms, start time, event id, start and end in epoch ms). A cursor
 * of the older four-value shape is refused as malformed (start the list again).
 */
interface FeedAfter {
  after: [number, string, number, number, number];
}

function isFeedPosition(o: Record<string, unknown>): boolean {
  const a = o.after;
  return Array.isArray(a) && a.length === 5 && typeof a[1] === 'string' && safeInts(a[0], a[2], a[3], a[4]);
}

/** The by-day feed, keyset-paged and read as of its first page, as upcoming (`resumeList`). */
async function loadFeed(
  deps: EventsServiceDeps,
  scopeAt: (now: Date) => EventScope | null,
  opts: { limit: number; cursor?: string | undefined; lang: ContentLanguage },
) {
  const list = resumeList<FeedAfter>(deps, 'feed', opts.cursor, isFeedPosition, scopeAt);
  const { scope, position } = list;
  if (!scope) return { items: [], next_cursor: null, has_more: false };
  const res = await deps.engine.search<EventOccurrenceDocument>(
    deps.index,
    feedQuery(scope, { limit: opts.limit, after: position?.after }),
  );
  const hasMore = res.hits.length > opts.limit;
  const hits = res.hits.slice(0, opts.limit);
  const days: Array<{ date: string; events: EventCardT[] }> = [];
  for (const hit of hits) {
    const card = toEventCard(hit._source, opts.lang);
    // An occurrence of yesterday still on is listed under today (its card keeps its own day).
    const date = card.day < scope.today ? scope.today : card.day;
    const lastDay = days.at(-1);
    if (lastDay?.date === date) lastDay.events.push(card);
    else days.push({ date, events: [card] });
  }
  const last = hits.at(-1);
  return {
    items: days,
    has_more: hasMore,
    next_cursor: hasMore && last?.sort ? list.cursorAfter({ after: last.sort as FeedAfter['after'] }) : null,
  };
}

async function loadMap(deps: EventsServiceDeps, scope: EventScope | null, zoom: number, lang: ContentLanguage) {
  const empty = { clusters: [], points: [], truncated: false, total: 0 };
  if (!scope) return empty;
  const maxPoints = deps.config.MAP_MAX_POINTS;
  const res = await deps.engine.search<EventPointSource>(deps.index, mapQuery(scope, { zoom, maxPoints }));
  const total: number = res.aggregations?.total?.value ?? 0;
  if (zoom <= CLUSTER_MAX_ZOOM) {
    const { clusters, truncated } = parseClusters<CellBucket & { events: { value: number } }>(
      res.aggregations,
      EVENT_MAP_MAX_CELLS,
      (b) => b.events.value,
    );
    return { clusters, points: [], truncated, total };
  }
  const points = res.hits.map((h) => toEventPoint(h._source, lang));
  return { clusters: [], points, truncated: total > points.length, total };
}

async function loadEventPage(deps: EventsServiceDeps, slug: string, lang: ContentLanguage) {
  const now = deps.clock.now();
  const res = await deps.engine.search<EventOccurrenceDocument>(
    deps.index,
    eventPageQuery(slug, now, deps.config.EVENT_PAGE_OCCURRENCES),
  );
  const first = res.hits[0]?._source;
  if (!first) return null;
  const card = toEventCard(first, lang);
  return {
    ...card,
    description: textIn(first.description, lang),
    next_occurrences: res.hits.map(({ _source: d }) => ({
      day: d.day,
      start_time: d.start_time,
      end_time: d.end_time,
      ends_next_day: d.ends_next_day,
      start_at: d.start_at,
      end_at: d.end_at,
    })),
  };
}
