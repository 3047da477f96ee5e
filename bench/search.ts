import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { loadConfigOrExit } from '@guest/config';
import { aliasName, BASE_CURRENCY, LISTING_KINDS, type ListingKind } from '@guest/catalog';
import { createCursorCodec } from '@guest/http-kit';
import { createRuntime, type Runtime } from '@guest/runtime';
import type { SearchEngine } from '@guest/search-engine';
import { loadDemoCatalog } from '@guest/indexer';
import { SearchFilters, SORTS } from '../apps/read-api/src/search/params.ts';
import { buildCountRequest, buildFeedRequest } from '../apps/read-api/src/search/feed.ts';
import { buildClusterRequest, buildPointsRequest } from '../apps/read-api/src/search/map.ts';
import { CLUSTER_MAX_ZOOM } from '../apps/read-api/src/geo/clusters.ts';
import { buildHistogramRequest, buildPriceStatsRequest } from '../apps/read-api/src/search/price-range.ts';
import { buildListingSuggestRequest, buildPlaceSuggestRequest } from '../apps/read-api/src/search/suggest.ts';
import { createFxService } from '../apps/read-api/src/fx/service.ts';
import type { QueryContext } from '../apps/read-api/src/search/query.ts';
import { calendarParams, upcomingParams } from '../apps/read-api/src/events/params.ts';
import { CARDINALITY_PRECISION } from '../apps/read-api/src/events/query.ts';
import { createEventsService } from '../apps/read-api/src/events/service.ts';
import {
  argValue,
  baseUrl,
  BenchError,
  checkPaths,
  failLoudly,
  getJson,
  measureDetailed,
  non2xxMessage,
  printTable,
} from './lib.ts';
import { eventScenarios } from './lib-events.ts';

/**
 * `npm run bench:search` — the search routes of spec 4.7 and the events calendar (30 days) and
 * upcoming of spec 4.8 under load, against a running read API at BASE_URL (default
 * http://127.0.0.1:8080). For each scenario: p50, p99 and requests/s at 1 and 32 connections
 * (autocannon, `--duration` seconds each), and beside them the engine's own time (p50/p99) for
 * the very same engine requests, asked directly from OpenSearch with the same pure builders (the
 * events rows: with the service's own `loadCalendar` / `loadUpcoming`), so the API's overhead
 * shows as a ratio (API p50 at 1 connection / engine p50). The engine's time is the sum of the
 * `took` of the requests a route makes; `count` makes one `_count` request, which reports no
 * `took`, so its engine time is that request's round trip as measured here (`engine` column).
 *
 * This process reads the same environment as the service (DATABASE_URL, OPENSEARCH_URL,
 * INDEX_PREFIX, CURSOR_SECRET): `--load 100000` first loads the demo catalog with that many
 * listings and `--events` (default 5000) events into the service's database and index through
 * the indexer's demo loader. `--skip-events` leaves the events scenarios out.
 *
 * Every path is asked once before timing; an answer outside 2xx (429: the service runs with its
 * default per-address rate limit, RATE_LIMIT_ADDRESS_PER_MIN) stops the benchmark with a message
 * and exit code 1, as does one during a timed run: error answers are never reported as timings.
 */
const base = baseUrl();
const connections = argValue('connections', '1,32').split(',').map(Number);
const durationS = Number(argValue('duration', '10'));
const engineRuns = Number(argValue('engine-runs', '60'));
const load = process.argv.includes('--load') ? Number(argValue('load', '100000')) : 0;
const loadEvents = Number(argValue('events', '5000'));
const skipEvents = process.argv.includes('--skip-events');

const config = loadConfigOrExit();
const rt: Runtime = createRuntime(config);
try {
  await run();
} catch (err) {
  await rt.close();
  failLoudly(err);
}
await rt.close();

async function run(): Promise<void> {
  if (load) {
    const r = await loadDemoCatalog(rt, { listings: load, events: loadEvents });
    console.log(`loaded demo catalog: ${JSON.stringify(r.import.byType ?? r.import)}`);
  }
  const listingsIndex = aliasName(config.INDEX_PREFIX, 'listings');
  const placesIndex = aliasName(config.INDEX_PREFIX, 'places');
  const eventsIndex = aliasName(config.INDEX_PREFIX, 'events');
  const ctx: QueryContext = { fx: await createFxService({ db: rt.database.db }).table(), baseCurrency: BASE_CURRENCY };

  // What the index holds, and whether the service at BASE_URL reads the same index.
  const indexed = await rt.search.count(listingsIndex, { query: { match_all: {} } });
  const events = await rt.search
    .search(eventsIndex, {
      size: 0,
      track_total_hits: true,
      aggs: { events: { cardinality: { field: 'event_id', precision_threshold: CARDINALITY_PRECISION } } },
    })
    .then((r) => ({ events: Number(r.aggregations?.events?.value ?? 0), occurrences: r.total }))
    .catch(() => ({ events: 0, occurrences: 0 }));
  console.log(
    `index ${config.INDEX_PREFIX}: ${indexed} listings, ${events.events} events (${events.occurrences} occurrences)`,
  );
  const { count } = await getJson<{ count: number }>(base, '/v1/search/count');
  if (count !== indexed) {
    throw new BenchError(
      `the service at ${base} sees ${count} listings, ${listingsIndex} holds ${indexed}: same INDEX_PREFIX?`,
    );
  }
  if (!skipEvents && !events.events) {
    throw new BenchError(
      `${eventsIndex} holds no events: load them (npm run demo:load -- --events 5000, or --load with --events), ` +
        'or pass --skip-events',
    );
  }

  const FeedQuery = SearchFilters.extend({
    sort: z.enum(SORTS).default('relevance'),
    limit: z.coerce.number().default(20),
  });
  const MapQuery = SearchFilters.extend({ zoom: z.coerce.number() });
  const params = (qs: string) => Object.fromEntries(new URLSearchParams(qs));

  // Around Phuket: a screen at each zoom (4x2.4 tiles).
  const screen = (zoom: number, lat = 7.9, lon = 98.34) => {
    const w = (360 / 2 ** zoom) * 4;
    const h = w * 0.6;
    return `${(lon - w / 2).toFixed(5)},${(lat - h / 2).toFixed(5)},${(lon + w / 2).toFixed(5)},${(lat + h / 2).toFixed(5)}`;
  };

  const filterShapes = [
    'kind=stay&bedrooms_min=2&amenities=pool',
    'kind=food&diets=vegan',
    'kind=experience&rating_min=4.5&sort=rating',
    `bbox=${screen(11)}&instant_book=true`,
    'kind=stay&date_from=2026-12-20&date_to=2026-12-27&guests=4&price_max=500000&sort=price_asc',
    'near=7.8804,98.3923&radius_m=5000&sort=distance',
  ];
  const textShapes = [
    'q=Kata',
    'q=villa',
    'q=%D0%9F%D1%85%D1%83%D0%BA%D0%B5%D1%82',
    'q=massage%20Patong',
    'q=%E6%99%AE%E5%90%89%E5%B2%9B',
    'q=diving',
  ];
  const bothShapes = [
    'q=villa&kind=stay&amenities=pool',
    'q=Patong&kind=food&rating_min=4',
    'q=diving&instant_book=true&sort=price_asc',
  ];

  interface Scenario {
    name: string;
    paths: string[];
    /** Engine time of one path: the sum of `took` of the engine requests the route makes. */
    engine: (path: string) => Promise<number>;
    /** `took` (the engine's own report), or `round trip` where the request reports no `took`. */
    engineBasis?: 'took' | 'round trip';
  }

  const feed = async (path: string) => {
    const q = FeedQuery.parse(params(path.split('?')[1] ?? ''));
    const { sort, limit, ...filters } = q;
    return (await rt.search.search(listingsIndex, buildFeedRequest(filters, ctx, { sort, limit }))).took;
  };
  const map = async (path: string) => {
    const { zoom, ...filters } = MapQuery.parse(params(path.split('?')[1] ?? ''));
    const body =
      zoom <= CLUSTER_MAX_ZOOM
        ? buildClusterRequest(filters, ctx, zoom, config.MAP_MAX_POINTS)
        : buildPointsRequest(filters, ctx, config.MAP_MAX_POINTS);
    return (await rt.search.search(listingsIndex, body)).took;
  };
  const countRoundTrip = async (path: string) => {
    // The route's own request: `_count` with the count body. `_count` reports no `took`, so the
    // engine's time is the round trip of that request from here (milliseconds, 0.1 ms).
    const filters = SearchFilters.parse(params(path.split('?')[1] ?? ''));
    const body = buildCountRequest(filters, ctx);
    const t0 = performance.now();
    await rt.search.count(listingsIndex, body);
    return Math.round((performance.now() - t0) * 10) / 10;
  };
  const priceRange = async (path: string) => {
    const k = params(path.split('?')[1] ?? '').kind;
    const kind = k === undefined || k === 'all' ? undefined : (k as ListingKind);
    const stats = await rt.search.search(listingsIndex, buildPriceStatsRequest(kind));
    const max = (stats.aggregations?.max?.value as number | null | undefined) ?? null;
    // As the route: no histogram request when nothing is priced (no maximum to build segments on).
    if (!stats.total || !max) return stats.took;
    return stats.took + (await rt.search.search(listingsIndex, buildHistogramRequest(kind, max))).took;
  };
  const suggest = async (path: string) => {
    const p = params(path.split('?')[1] ?? '');
    const [a, b] = await Promise.all([
      rt.search.search(placesIndex, buildPlaceSuggestRequest(p.q!, config.SEARCH_SUGGEST_LIMIT)),
      rt.search.search(listingsIndex, buildListingSuggestRequest(p.q!, undefined, config.SEARCH_SUGGEST_LIMIT)),
    ]);
    return Math.max(a.took, b.took);
  };

  const scenarios: Scenario[] = [
    {
      name: 'feed, no filters',
      paths: ['/v1/search/listings', '/v1/search/listings?sort=new', '/v1/search/listings?sort=price_asc'],
      engine: feed,
    },
    { name: 'feed, filters', paths: filterShapes.map((s) => `/v1/search/listings?${s}`), engine: feed },
    { name: 'feed, q', paths: textShapes.map((s) => `/v1/search/listings?${s}`), engine: feed },
    { name: 'feed, q + filters', paths: bothShapes.map((s) => `/v1/search/listings?${s}`), engine: feed },
    ...[5, 10, 15].map((zoom) => ({
      name: `map zoom ${zoom}`,
      paths: ['', '&kind=stay', '&kind=food&rating_min=4'].map(
        (s) => `/v1/search/map?zoom=${zoom}&bbox=${screen(zoom)}${s}`,
      ),
      engine: map,
    })),
    {
      name: 'count',
      paths: ['', ...filterShapes, ...textShapes.slice(0, 3)].map((s) => `/v1/search/count?${s}`),
      engine: countRoundTrip,
      engineBasis: 'round trip',
    },
    {
      name: 'price-range',
      paths: ['', ...LISTING_KINDS.map((k) => `kind=${k}`)].map((s) => `/v1/search/price-range?${s}`),
      engine: priceRange,
    },
    {
      name: 'suggest',
      paths: ['Ka', 'Kata', 'Пху', 'phu', 'villa', '普吉', 'Patnog', 'mass'].map(
        (q) => `/v1/search/suggest?q=${encodeURIComponent(q)}`,
      ),
      engine: suggest,
    },
  ];

  // Events (spec 4.8): the scenarios of `npm run bench:events`; the engine's time through the
  // service's own loaders, on an engine that adds up the `took` of every request they make.
  let eventsTook = 0;
  const tookCountingEngine: SearchEngine = {
    ...rt.search,
    async search<T>(index: string, body: Record<string, unknown>, p?: Record<string, unknown>) {
      const res = await rt.search.search<T>(index, body, p);
      eventsTook += res.took;
      return res;
    },
  };
  const eventsService = createEventsService({
    engine: tookCountingEngine,
    index: eventsIndex,
    cursors: createCursorCodec(config.CURSOR_SECRET),
    clock: rt.clock,
    config,
  });
  // The query strings of the two routes.
  const CalendarQuery = calendarParams(config);
  const UpcomingQuery = upcomingParams(config);
  const eventsEngine = async (path: string) => {
    const qs = params(path.split('?')[1] ?? '');
    eventsTook = 0;
    if (path.startsWith('/v1/events/calendar')) {
      await eventsService.calendar(CalendarQuery.parse(qs));
    } else {
      const q = UpcomingQuery.parse(qs);
      await eventsService.upcoming(q, 'en').catch((err: Error) => {
        if (!q.cursor) throw err;
        throw new BenchError(
          `the service's upcoming cursor cannot be read here (${err.message}): run the benchmark with the ` +
            "service's CURSOR_SECRET",
        );
      });
    }
    return eventsTook;
  };
  if (!skipEvents) {
    const ev = await eventScenarios(base);
    console.log(`events in the 180-day horizon (service): ${ev.eventsInHorizon}; categories: ${ev.categories}`);
    for (const e of ev.scenarios) scenarios.push({ name: `events ${e.name}`, paths: e.paths, engine: eventsEngine });
  }

  // Every path once, before any timing: an error answer stops the benchmark here, with its reason.
  await checkPaths(
    base,
    scenarios.flatMap((s) => s.paths),
  );

  const pct = (xs: number[], p: number) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
  };

  const rows: Array<Record<string, unknown>> = [];
  let socketErrors = 0;
  for (const s of scenarios) {
    // The engine alone, same bodies, one at a time (warm: after one pass).
    for (const p of s.paths) await s.engine(p);
    const tooks: number[] = [];
    for (let i = 0; i < engineRuns; i++) tooks.push(await s.engine(s.paths[i % s.paths.length]!));
    const tookP50 = pct(tooks, 50);
    for (const c of connections) {
      const { measured: m, statusCodes } = await measureDetailed({
        name: s.name,
        url: base,
        connections: c,
        durationS,
        requests: s.paths.map((path) => ({ method: 'GET', path })),
        stopOnNon2xx: true,
      });
      if (m.non2xx) {
        printTable(rows);
        throw new BenchError(non2xxMessage(`${s.name} at ${c} connections`, statusCodes));
      }
      socketErrors += m.errors;
      rows.push({
        scenario: s.name,
        conns: c,
        'p50 ms': m.p50_ms,
        'p99 ms': m.p99_ms,
        'req/s': m.rps,
        'engine p50': tookP50,
        'engine p99': pct(tooks, 99),
        engine: s.engineBasis ?? 'took',
        'p50/engine': tookP50 ? (m.p50_ms / tookP50).toFixed(1) : 'n/a',
        errors: m.errors,
      });
    }
  }
  printTable(rows);
  if (socketErrors) {
    console.error(
      `\n${socketErrors} connection errors or timeouts (column errors): the run is not a clean measurement.`,
    );
    process.exitCode = 1;
  }
}
