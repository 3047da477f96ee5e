import { describe, expect, it } from 'vitest';
import {
  eventTextFilters,
  atOrBeforeClause,
  calendarQuery,
  endCutoff,
  eventQuery,
  feedQuery,
  localStartKey,
  mapQuery,
  nearestQuery,
  upcomingFirstPageQuery,
  upcomingQuery,
  unseenEventIds,
  type EventScope,
} from './query.ts';
import { EVENT_POINT_SOURCE } from './card.ts';

const now = new Date('2026-12-01T10:00:00Z');
const base: EventScope = {
  filters: { entry: 'any', time: 'any', audience: 'any', eventLang: 'any' },
  window: { from: '2026-12-01', to: '2026-12-30' },
  today: '2026-12-01',
  now,
};
/** The window from today: its days, and yesterday's occurrences still on at `now`. */
const fromToday = {
  bool: {
    should: [
      { range: { day: { gte: '2026-12-01', lte: '2026-12-30' } } },
      {
        bool: { filter: [{ term: { day: '2026-11-30' } }, { range: { end_at: { gt: '2026-12-01T10:00:00.000Z' } } }] },
      },
    ],
    minimum_should_match: 1,
  },
};
const endedToday = {
  bool: { filter: [{ term: { day: '2026-12-01' } }, { range: { end_at: { lte: '2026-12-01T10:00:00.000Z' } } }] },
};

describe('eventQuery', () => {
  it("with no filters reads the window and cuts only today's ended occurrences (calendar rule 3)", () => {
    expect(eventQuery(base)).toEqual({
      bool: { filter: [fromToday], must_not: [endedToday] },
    });
  });

  it('a window starting after today reads only its days (nothing still on from the day before)', () => {
    expect((eventQuery({ ...base, window: { from: '2026-12-05', to: '2026-12-06' } }) as any).bool.filter).toEqual([
      { range: { day: { gte: '2026-12-05', lte: '2026-12-06' } } },
    ]);
  });

  it('turns every shared filter into one clause', () => {
    const q = eventQuery({
      ...base,
      filters: {
        categories: ['music', 'yoga'],
        entry: 'free',
        time: 'morning',
        audience: 'family',
        crowd: ['small', 'medium'],
        eventLang: 'ru',
        q: 'beach party',
        bbox: { minLon: 98.2, minLat: 7.7, maxLon: 98.4, maxLat: 7.9 },
        near: { lat: 7.8, lon: 98.3, radiusM: 5000 },
      },
    });
    expect((q as any).bool.filter).toEqual([
      fromToday,
      { terms: { 'category.code': ['music', 'yoga'] } },
      { term: { entry: 'free' } },
      { range: { start_minute: { gte: 300, lte: 719 } } },
      { term: { audience: 'family' } },
      { terms: { crowd: ['small', 'medium'] } },
      { term: { event_lang: 'ru' } },
      ...eventTextFilters('beach party', null),
      { geo_bounding_box: { location: { top_left: { lat: 7.9, lon: 98.2 }, bottom_right: { lat: 7.7, lon: 98.4 } } } },
      { geo_distance: { distance: '5000m', location: { lat: 7.8, lon: 98.3 } } },
    ]);
  });

  it('q: every word in a name, description or venue of any language; places by id, not by name', () => {
    const [beach, party] = eventTextFilters('beach party', null) as any[];
    expect(beach.bool.should[0].multi_match).toMatchObject({ query: 'beach', operator: 'and' });
    expect(party.bool.should[0].multi_match.query).toBe('party');
    const fields: string[] = beach.bool.should[0].multi_match.fields;
    expect(fields).toEqual(expect.arrayContaining(['title.ru', 'venue.name.en', 'description.zh-Hans', 'text_all']));
    expect(fields.some((f) => f.startsWith('place_names'))).toBe(false);
    const plan = { placeIds: [7], placeMatches: [], intents: [], words: [], elsewhere: [], wider: [] };
    expect(eventTextFilters('Kata', plan)).toEqual([{ terms: { place_path_ids: [7] } }]);
  });
});

describe('calendarQuery', () => {
  it('counts distinct events per venue day', () => {
    const body = calendarQuery(base) as any;
    expect(body.size).toBe(0);
    expect(body.aggs.days.date_histogram).toEqual({
      field: 'day',
      calendar_interval: 'day',
      format: 'yyyy-MM-dd',
      min_doc_count: 1,
    });
    expect(body.aggs.days.aggs.events.cardinality.field).toBe('event_id');
  });
});

describe('upcomingQuery (one card per event, ordered by first local start, then id)', () => {
  it('orders event buckets by their earliest local start and takes limit + 1', () => {
    const body = upcomingQuery(base, { limit: 20, withTotal: false }) as any;
    expect(body.aggs.events.terms).toEqual({
      field: 'event_id',
      size: 21,
      order: [{ first: 'asc' }, { _key: 'asc' }],
    });
    expect(body.aggs.events.aggs.first).toEqual({ min: { field: 'local_start_key' } });
    expect(body.aggs.events.aggs.seen).toBeUndefined();
    expect(body.aggs.events.aggs.fresh).toBeUndefined();
    expect(body.aggs.total).toBeUndefined();
  });

  it('after a cursor: events not yet listed come first, so limit + 1 buckets suffice for any number of events', () => {
    const after = { k: localStartKey('2026-12-02', '13:00'), id: 7 };
    const body = upcomingQuery(base, { limit: 5, after, withTotal: true }) as any;
    // No cap on the number of events ordered: the terms size is the page (+1 for has_more).
    expect(body.aggs.events.terms).toEqual({
      field: 'event_id',
      size: 6,
      order: [{ seen: 'asc' }, { first: 'asc' }, { _key: 'asc' }],
    });
    expect(body.aggs.events.aggs.seen).toEqual({ filter: atOrBeforeClause(after) });
    // Portable subset: no script, no pipeline aggregation; seen buckets are dropped by unseenEventIds.
    expect(JSON.stringify(body)).not.toMatch(/"from"|bucket_sort|bucket_selector|script/);
    expect(body.aggs.total).toEqual({ cardinality: { field: 'event_id', precision_threshold: 40000 } });
  });

  it('unseenEventIds: bucket keys in order, without events an earlier page listed', () => {
    const buckets = [
      { key: 4, seen: { doc_count: 0 } },
      { key: 9, seen: { doc_count: 0 } },
      { key: 2, seen: { doc_count: 3 } },
    ];
    expect(unseenEventIds(buckets)).toEqual([4, 9]);
    expect(unseenEventIds([{ key: 5 }, { key: 1 }])).toEqual([5, 1]);
  });

  it('atOrBeforeClause: occurrences at or before the cursor in the order day, start, event id', () => {
    expect(atOrBeforeClause({ k: localStartKey('2026-12-02', '13:05'), id: 7 })).toEqual({
      bool: {
        should: [
          { range: { day: { lt: '2026-12-02' } } },
          { bool: { filter: [{ term: { day: '2026-12-02' } }, { range: { start_minute: { lt: 785 } } }] } },
          {
            bool: {
              filter: [
                { term: { day: '2026-12-02' } },
                { term: { start_minute: 785 } },
                { range: { event_id: { lte: 7 } } },
              ],
            },
          },
        ],
        minimum_should_match: 1,
      },
    });
    expect(
      (atOrBeforeClause({ k: localStartKey('2026-12-31', '00:00'), id: 1 }) as any).bool.should[1].bool.filter,
    ).toEqual([{ term: { day: '2026-12-31' } }, { range: { start_minute: { lt: 0 } } }]);
  });
});

describe('upcomingFirstPageQuery', () => {
  it('collapses on the event in occurrence order and takes limit + 1', () => {
    const body = upcomingFirstPageQuery(base, { limit: 20, withTotal: true }) as any;
    expect(body.size).toBe(21);
    expect(body.collapse).toEqual({ field: 'event_id' });
    expect(body.sort.slice(0, 3)).toEqual([{ day: 'asc' }, { start_time: 'asc' }, { event_id: 'asc' }]);
    expect(body.aggs.total.cardinality.field).toBe('event_id');
    expect((upcomingFirstPageQuery(base, { limit: 5, withTotal: false }) as any).aggs).toBeUndefined();
  });
  it('computes the same local start key as the engine script', () => {
    expect(localStartKey('2026-12-02', '13:00')).toBe(Date.parse('2026-12-02T00:00:00Z') + 13 * 3_600_000);
  });
});

describe('nearestQuery and feedQuery', () => {
  it('collapses on the event and sorts by day, start time, event', () => {
    const body = nearestQuery(base, [3, 1]) as any;
    expect(body.collapse).toEqual({ field: 'event_id' });
    expect(body.sort.slice(0, 3)).toEqual([{ day: 'asc' }, { start_time: 'asc' }, { event_id: 'asc' }]);
    expect(body.query.bool.filter.at(-1)).toEqual({ terms: { event_id: [3, 1] } });
  });
  it('pages the feed with search_after', () => {
    expect((feedQuery(base, { limit: 10 }) as any).search_after).toBeUndefined();
    const body = feedQuery(base, { limit: 10, after: [1, '10:00', 3, 2] }) as any;
    expect(body.size).toBe(11);
    expect(body.search_after).toEqual([1, '10:00', 3, 2]);
  });
});

describe('mapQuery', () => {
  it('clusters up to zoom 12 and gives points beyond', () => {
    expect((mapQuery(base, { zoom: 12, maxPoints: 500 }) as any).aggs.cells.geotile_grid.precision).toBe(14);
    const points = mapQuery(base, { zoom: 13, maxPoints: 500 }) as any;
    expect(points.size).toBe(500);
    expect(points.collapse).toEqual({ field: 'event_id' });
  });
  it('loads only what a point shows: no description or search helper of 500 occurrences', () => {
    const points = mapQuery(base, { zoom: 13, maxPoints: 500 }) as any;
    expect(points._source).toEqual([...EVENT_POINT_SOURCE]);
    for (const heavy of ['description', 'place_names', 'place_path_ids', 'venue']) {
      expect(points._source).not.toContain(heavy);
    }
  });
});

describe('endCutoff', () => {
  it('is now down to its whole minute: the same query for a minute, the same occurrences as now itself', () => {
    expect(endCutoff(new Date('2026-12-04T04:00:59.999Z'))).toBe('2026-12-04T04:00:00.000Z');
    expect(endCutoff(new Date('2026-12-04T04:01:00.000Z'))).toBe('2026-12-04T04:01:00.000Z');
    // Ends fall on whole minutes: "ended by now" and "ended by the minute of now" agree.
    const now = new Date('2026-12-04T04:00:30.000Z');
    for (const end of ['2026-12-04T04:00:00Z', '2026-12-04T04:01:00Z', '2026-12-04T03:59:00Z']) {
      expect(Date.parse(end) > now.getTime()).toBe(Date.parse(end) > Date.parse(endCutoff(now)));
    }
  });
});
