import { addDays, CONTENT_LANGUAGES } from '@guest/catalog';
import type { Dsl } from '@guest/search-engine';
import { cellPrecision, CLUSTER_MAX_ZOOM, clusterCells } from '../geo/clusters.ts';
import { boundingBoxFilter, withinRadiusFilter, type BBox } from '../geo/filters.ts';
import { timeOfDayClause, type TimeOfDay } from './time-of-day.ts';
import type { DayWindow } from './window.ts';
import { EVENT_POINT_SOURCE } from './card.ts';
import { planClauses, planWordClause, type PlanTargets } from '../query-understanding/dsl.ts';
import { planOrWords, type PlanWord, type QueryPlan } from '../query-understanding/understand.ts';

/**
 * Pure query builders for the events index (one document per occurrence): filters in, query DSL
 * out. Unit-tested against expected JSON (query.test.ts) and proven on the real engine by the
 * route tests under test/read-api.
 */

export interface EventFilters {
  categories?: string[] | undefined;
  entry: 'free' | 'paid' | 'any';
  time: TimeOfDay | 'any';
  audience: 'family' | 'adults' | 'any';
  crowd?: string[] | undefined;
  eventLang: string;
  q?: string | undefined;
  /** What `q` asks for (query understanding); absent: `q` is read as words only. */
  plan?: QueryPlan | null | undefined;
  /** Whether the intents of `q` select something (events/intents.ts): then its other words are relaxed. */
  intentsBind?: boolean | undefined;
  /** Relaxed words of `q` that some event in reach has: they narrow the list; the others are left out. */
  keptWords?: string[] | undefined;
  bbox?: BBox | undefined;
  near?: { lat: number; lon: number; radiusM: number } | undefined;
}

export interface EventScope {
  filters: EventFilters;
  /** Venue-zone days read, inclusive. */
  window: DayWindow;
  /** Today in the request's `timezone`. */
  today: string;
  now: Date;
}

/**
 * Fields the words of `q` are looked for in: name, description and venue in every language, plus
 * folded ICU words. The places `q` names are selected exactly by query understanding, as for
 * listings (the same module, so one word selects the same places in both).
 */
export const EVENT_TEXT_FIELDS = [
  ...['title', 'description', 'venue.name'].flatMap((f) => CONTENT_LANGUAGES.map((l) => `${f}.${l}`)),
  'text_all',
];

export const EVENT_TARGETS: PlanTargets = {
  fields: EVENT_TEXT_FIELDS,
  placePath: 'place_path_ids',
  codes: { category: 'category.code' },
};

/**
 * `q` as filters (the events lists are ordered by time, not scored): the places it names, every
 * word that names a category (by its code or its text), and the other words: all of them when
 * nothing else in `q` binds; else only the relaxed words some event has (`keptWords`, found by
 * `relaxedWordsQuery`), so one word the catalog lacks never empties the list.
 */
export function eventTextFilters(
  q: string,
  plan: QueryPlan | null | undefined,
  opts: { intentsBind?: boolean | undefined; keptWords?: string[] | undefined } = {},
): Dsl[] {
  const p = planOrWords(q, plan);
  if (!p) return [];
  const { must, filter, relaxed } = planClauses(p, EVENT_TARGETS, { intentsBind: opts.intentsBind });
  const kept = relaxed.filter((w) => opts.keptWords?.includes(w.text)).map((w) => planWordClause(w, EVENT_TARGETS));
  return [...filter, ...must, ...kept];
}

/** The relaxed words of `q` (see `planClauses`). */
export function eventRelaxedWords(f: EventFilters): PlanWord[] {
  const p = f.q ? planOrWords(f.q, f.plan) : null;
  return p ? planClauses(p, EVENT_TARGETS, { intentsBind: f.intentsBind }).relaxed : [];
}

/** How many occurrences in the scope, without the relaxed words, have each of them (`w0`, `w1`, … in order). */
export function relaxedWordsQuery(scope: EventScope, words: PlanWord[]): Dsl {
  return {
    size: 0,
    track_total_hits: false,
    query: eventQuery({ ...scope, filters: { ...scope.filters, keptWords: [] } }),
    aggs: {
      words: {
        filters: { filters: Object.fromEntries(words.map((w, i) => [`w${i}`, planWordClause(w, EVENT_TARGETS)])) },
      },
    },
  };
}

/**
 * The days of the window; a window that starts today also takes yesterday's occurrences that are
 * still on (a party from 22:00 to 03:00 at 01:00): guests see and count them today until they end.
 * The index keeps such an occurrence until its end (the schedule expansion and the horizon roll).
 */
export function windowClause(scope: EventScope): Dsl {
  const days: Dsl = { range: { day: { gte: scope.window.from, lte: scope.window.to } } };
  if (scope.window.from !== scope.today) return days;
  const stillOn: Dsl = {
    bool: {
      filter: [{ term: { day: addDays(scope.today, -1) } }, { range: { end_at: { gt: endCutoff(scope.now) } } }],
    },
  };
  return { bool: { should: [days, stillOn], minimum_should_match: 1 } };
}

/** Occurrences that match every filter inside the window, without today's already-ended ones. */
export function eventQuery(scope: EventScope, extra: Dsl[] = []): Dsl {
  const f = scope.filters;
  const filter: Dsl[] = [windowClause(scope)];
  if (f.categories?.length) filter.push({ terms: { 'category.code': f.categories } });
  if (f.entry !== 'any') filter.push({ term: { entry: f.entry } });
  if (f.time !== 'any') filter.push(timeOfDayClause(f.time));
  if (f.audience !== 'any') filter.push({ term: { audience: f.audience } });
  if (f.crowd?.length) filter.push({ terms: { crowd: f.crowd } });
  if (f.eventLang !== 'any') filter.push({ term: { event_lang: f.eventLang } });
  if (f.q) filter.push(...eventTextFilters(f.q, f.plan, { intentsBind: f.intentsBind, keptWords: f.keptWords }));
  if (f.bbox) filter.push(boundingBoxFilter(f.bbox));
  if (f.near) filter.push(withinRadiusFilter(f.near, f.near.radiusM));
  filter.push(...extra);
  return {
    bool: {
      filter,
      // Calendar rule 3: in today's day, events that have already ended do not count.
      must_not: [
        { bool: { filter: [{ term: { day: scope.today } }, { range: { end_at: { lte: endCutoff(scope.now) } } }] } },
      ],
    },
  };
}

/** Events per day of the strip: distinct events, so two shows of one event on a day count once. */
export function calendarQuery(scope: EventScope): Dsl {
  return {
    size: 0,
    track_total_hits: false,
    query: eventQuery(scope),
    aggs: {
      days: {
        date_histogram: { field: 'day', calendar_interval: 'day', format: 'yyyy-MM-dd', min_doc_count: 1 },
        aggs: { events: { cardinality: { field: 'event_id', precision_threshold: DAY_CARDINALITY_PRECISION } } },
      },
      // Today's count: today's occurrences and yesterday's still on (the query keeps only those),
      // distinct events across both, so a day bucket cannot give it.
      today: {
        filter: { terms: { day: [addDays(scope.today, -1), scope.today] } },
        aggs: { events: { cardinality: { field: 'event_id', precision_threshold: DAY_CARDINALITY_PRECISION } } },
      },
    },
  };
}

/** Below this many distinct values the engine's cardinality count is exact (its maximum). */
export const CARDINALITY_PRECISION = 40_000;
/**
 * Per calendar day: exact up to 5,000 events a day (approximate, within a few percent, above).
 * The engine's maximum costs ~320 KB per day bucket and made the 30-day strip several times slower.
 */
export const DAY_CARDINALITY_PRECISION = 5_000;

/**
 * Sort key of an occurrence in the order "day, start time" (upcoming rule 2): the local wall-clock
 * start as milliseconds, comparable across venues in different zones. The indexer stores it in
 * every occurrence, so no script computes it (the portable subset of DESIGN.md has none).
 */
export const LOCAL_START_FIELD = 'local_start_key';

/** Keyset position after the last card of a page: its local start key and event id. */
export interface UpcomingAfter {
  k: number;
  id: number;
}

const DAY_MS = 86_400_000;

/**
 * Occurrences at or before the keyset position `a` in the order day, local start, event id — the
 * positions of cards already listed. Plain range clauses on the fields `LOCAL_START_FIELD` is made of.
 */
export function atOrBeforeClause(a: UpcomingAfter): Dsl {
  const dayMs = Math.floor(a.k / DAY_MS) * DAY_MS;
  const day = new Date(dayMs).toISOString().slice(0, 10);
  const minute = (a.k - dayMs) / 60_000;
  return {
    bool: {
      should: [
        { range: { day: { lt: day } } },
        { bool: { filter: [{ term: { day } }, { range: { start_minute: { lt: minute } } }] } },
        {
          bool: {
            filter: [{ term: { day } }, { term: { start_minute: minute } }, { range: { event_id: { lte: a.id } } }],
          },
        },
      ],
      minimum_should_match: 1,
    },
  };
}

/**
 * Upcoming rule 1 for the pages after the first: one card per event, at its nearest matching
 * occurrence, continuing after `after`. Exact for any number of events, without offsets:
 *
 * - events are terms buckets over the matching occurrences; `first` is an event's nearest one
 *   (its smallest local start key, rule 2);
 * - `seen` counts an event's matching occurrences at or before the cursor. An event with one was
 *   listed on an earlier page (its nearest occurrence is at or before the cursor), one without
 *   was not. The buckets are ordered unseen first, then by `first` and event id, so the top
 *   `limit + 1` buckets are exactly the next events of the list (and `has_more`), however many
 *   events earlier pages listed; seen ones among them (when fewer are left) are dropped by
 *   `unseenEventIds`, not by a `bucket_selector` (outside the portable subset).
 *
 * The events index has one shard (mappings/settings.json), so every event's occurrences are
 * counted together and the bucket order is exact. The engine answers with event ids only;
 * `nearestQuery` then fetches the cards.
 */
export function upcomingQuery(
  scope: EventScope,
  opts: { limit: number; after?: UpcomingAfter | undefined; withTotal: boolean },
): Dsl {
  const bucketAggs: Dsl = { first: { min: { field: LOCAL_START_FIELD } } };
  const order: Dsl[] = [{ first: 'asc' }, { _key: 'asc' }];
  if (opts.after) {
    bucketAggs.seen = { filter: atOrBeforeClause(opts.after) };
    order.unshift({ seen: 'asc' });
  }
  const aggs: Dsl = {
    events: { terms: { field: 'event_id', size: opts.limit + 1, order }, aggs: bucketAggs },
  };
  if (opts.withTotal) aggs.total = { cardinality: { field: 'event_id', precision_threshold: CARDINALITY_PRECISION } };
  return { size: 0, track_total_hits: false, query: eventQuery(scope), aggs };
}

/** Event ids of `upcomingQuery`'s buckets, in order, without those listed on earlier pages. */
export function unseenEventIds(buckets: Array<{ key: number; seen?: { doc_count: number } }>): number[] {
  return buckets.filter((b) => !b.seen?.doc_count).map((b) => Number(b.key));
}

/**
 * The first page of upcoming in one request: collapsing on the event keeps each event's first
 * occurrence in sort order (its nearest matching one), and groups come in the order of those
 * occurrences — the same order as `upcomingQuery`, which later pages use.
 */
export function upcomingFirstPageQuery(scope: EventScope, opts: { limit: number; withTotal: boolean }): Dsl {
  const body: Dsl = {
    size: opts.limit + 1,
    track_total_hits: false,
    query: eventQuery(scope),
    collapse: { field: 'event_id' },
    sort: OCCURRENCE_SORT,
  };
  if (opts.withTotal) {
    body.aggs = { total: { cardinality: { field: 'event_id', precision_threshold: CARDINALITY_PRECISION } } };
  }
  return body;
}

/** The local start key (`LOCAL_START_FIELD`), from a card's day and start time. */
export function localStartKey(day: string, startTime: string): number {
  const [h, m] = startTime.split(':').map(Number);
  return Date.parse(`${day}T00:00:00Z`) + (h! * 60 + m!) * 60_000;
}

/**
 * Upcoming order of occurrences. It is a total order, so that the feed's keyset paging never
 * drops or repeats one: an event's occurrences on one day at one start time differ in their end
 * (the schedule expansion keeps one per day, start and end), hence `end_at` last.
 */
export const OCCURRENCE_SORT = [
  { day: 'asc' },
  { start_time: 'asc' },
  { event_id: 'asc' },
  { start_at: 'asc' },
  { end_at: 'asc' },
];

/** The nearest matching occurrence of each of `eventIds` (one per event, by collapse). */
export function nearestQuery(scope: EventScope, eventIds: number[]): Dsl {
  return {
    size: eventIds.length,
    track_total_hits: false,
    query: eventQuery(scope, [{ terms: { event_id: eventIds } }]),
    collapse: { field: 'event_id' },
    sort: OCCURRENCE_SORT,
  };
}

/** The by-day feed: every matching occurrence on its day, in upcoming order, keyset-paged. */
export function feedQuery(scope: EventScope, opts: { limit: number; after?: unknown[] | undefined }): Dsl {
  const body: Dsl = {
    size: opts.limit + 1,
    track_total_hits: false,
    query: eventQuery(scope),
    sort: OCCURRENCE_SORT,
  };
  if (opts.after) body.search_after = opts.after;
  return body;
}

/** The most cells the events map clusters into (all of them at its precisions, in practice). */
export const EVENT_MAP_MAX_CELLS = 10_000;

/**
 * Events map: up to `CLUSTER_MAX_ZOOM` clusters (the search map's grid, with distinct-event counts),
 * beyond that one point per event (its nearest matching occurrence), at most `maxPoints`.
 */
export function mapQuery(scope: EventScope, opts: { zoom: number; maxPoints: number }): Dsl {
  const total = { cardinality: { field: 'event_id', precision_threshold: CARDINALITY_PRECISION } };
  if (opts.zoom <= CLUSTER_MAX_ZOOM) {
    return {
      size: 0,
      track_total_hits: false,
      query: eventQuery(scope),
      aggs: {
        total,
        cells: clusterCells(cellPrecision(opts.zoom), EVENT_MAP_MAX_CELLS, {
          events: { cardinality: { field: 'event_id', precision_threshold: CARDINALITY_PRECISION } },
        }),
      },
    };
  }
  return {
    size: opts.maxPoints,
    track_total_hits: false,
    _source: [...EVENT_POINT_SOURCE],
    query: eventQuery(scope),
    collapse: { field: 'event_id' },
    sort: OCCURRENCE_SORT,
    aggs: { total },
  };
}

/** An event's next occurrences (not yet ended), for its page. */
/**
 * The instant an engine query tells ended occurrences from the others by: `now` down to its whole
 * minute. Occurrences end on whole minutes (HH:MM in their zone, and every zone's offset is whole
 * minutes), so `end_at > now` and `end_at > the minute of now` select the same occurrences; but
 * the query text now stays the same for a minute, so the engine's request cache answers repeats
 * of a calendar or an events map (at 100,000 listings a 30-day strip cost the engine about 40 ms
 * each time while every query carried a new millisecond).
 */
export function endCutoff(now: Date): string {
  return new Date(Math.floor(now.getTime() / 60_000) * 60_000).toISOString();
}

export function eventPageQuery(slug: string, now: Date, size: number): Dsl {
  return {
    size,
    track_total_hits: false,
    query: { bool: { filter: [{ term: { slug } }, { range: { end_at: { gt: endCutoff(now) } } }] } },
    sort: [{ start_at: 'asc' }, { start_time: 'asc' }],
  };
}
