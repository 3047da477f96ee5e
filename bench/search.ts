import { performance } from 'node:perf_hooks';
import { loadConfigOrExit } from '@guest/config';
import { aliasName, LISTING_KINDS } from '@guest/catalog';
import { createCursorCodec } from '@guest/http-kit';
import { createRuntime, type Runtime } from '@guest/runtime';
import type { SearchEngine } from '@guest/search-engine';
import { loadDemoCatalog } from '@guest/indexer';
import {
  calendarParams,
  countParams,
  createReadServices,
  feedParams,
  mapParams,
  PriceRangeParams,
  SuggestParams,
  upcomingParams,
  type ReadServices,
} from '@guest/read-api/services';
import {
  argValue,
  baseUrl,
  BenchError,
  checkPaths,
  failLoudly,
  getJson,
  measureDetailed,
  non2xxMessage,
  percentile,
  printTable,
} from './lib.ts';
import { eventScenarios } from './lib-events.ts';

/**
 * `npm run bench:search` — the search routes of spec 4.7 and the events calendar (30 days) and
 * upcoming of spec 4.8 under load, against a running read API at BASE_URL (default
 * http://127.0.0.1:8080). For each scenario: p50, p99 and requests/s at 1 and 32 connections
 * (autocannon, `--duration` seconds each), and beside them the engine's own time (p50/p99) for
 * the very same engine requests: the read API's own services (`@guest/read-api/services`) run
 * here on an engine that records every request they make, with each path's query parsed by the
 * route's own schema, so the API's overhead shows as a ratio (API p50 at 1 connection / engine
 * p50). The engine's time is the sum of the `took` of the requests a route makes (suggest: the
 * larger of its two, which run side by side); `count` makes one `_count` request, which reports
 * no `took`, so its engine time is that request's round trip as measured here (`engine` column).
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
  // Every engine request the services make: its `took`, or for `_count` (no `took`) its round trip.
  const times: number[] = [];
  const recordingEngine: SearchEngine = {
    ...rt.search,
    async search<T>(index: string, body: Record<string, unknown>, p?: Record<string, unknown>) {
      const res = await rt.search.search<T>(index, body, p);
      times.push(res.took);
      return res;
    },
    async count(index: string, body: Record<string, unknown>) {
      const t0 = performance.now();
      const n = await rt.search.count(index, body);
      times.push(Math.round((performance.now() - t0) * 10) / 10);
      return n;
    },
  };
  const services: ReadServices = createReadServices({
    // Every call reaches the engine (and is timed), never the result cache.
    config: { ...config, SEARCH_CACHE_TTL_MS: 0 },
    database: rt.database,
    engine: recordingEngine,
    clock: rt.clock,
    cursors: createCursorCodec(config.CURSOR_SECRET),
  });
  try {
    await measureAll(services, () => times.splice(0));
  } finally {
    await services.close();
  }
}

async function measureAll(services: ReadServices, takeTimes: () => number[]): Promise<void> {
  const eventsIndex = aliasName(config.INDEX_PREFIX, 'events');
  const params = (qs: string) => Object.fromEntries(new URLSearchParams(qs));
  const query = (path: string) => params(path.split('?')[1] ?? '');

  // What the index holds, and whether the service at BASE_URL reads the same index.
  const CountParams = countParams(config);
  const MapParams = mapParams(config);
  const indexed = (await services.search.count(CountParams.parse({}))).count;
  const occurrences = await rt.search.count(eventsIndex, { query: { match_all: {} } }).catch(() => 0);
  console.log(`index ${config.INDEX_PREFIX}: ${indexed} listings, ${occurrences} event occurrences`);
  const { count } = await getJson<{ count: number }>(base, '/v1/search/count');
  if (count !== indexed) {
    throw new BenchError(
      `the service at ${base} sees ${count} listings, ${aliasName(config.INDEX_PREFIX, 'listings')} holds ${indexed}: same INDEX_PREFIX?`,
    );
  }
  if (!skipEvents && !occurrences) {
    throw new BenchError(
      `${eventsIndex} holds no events: load them (npm run demo:load -- --events 5000, or --load with --events), ` +
        'or pass --skip-events',
    );
  }

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

  /** Runs one path's service call and adds up (or, for requests side by side, takes the largest of) its engine times. */
  const engineTime =
    (call: (q: Record<string, string>, path: string) => Promise<unknown>, combine: 'sum' | 'max' = 'sum') =>
    async (path: string) => {
      takeTimes();
      await call(query(path), path);
      const t = takeTimes();
      return combine === 'max' ? Math.max(0, ...t) : Math.round(t.reduce((a, b) => a + b, 0) * 10) / 10;
    };
  const FeedParams = feedParams(config);
  const feed = engineTime((q) => services.search.feed(FeedParams.parse(q), { lang: 'en' }));
  const map = engineTime((q) => services.search.map(MapParams.parse(q)));
  const countRoundTrip = engineTime((q) => services.search.count(CountParams.parse(q)));
  const priceRange = engineTime((q) => services.search.priceRange(PriceRangeParams.parse(q)));
  const suggest = engineTime((q) => services.search.suggest(SuggestParams.parse(q), 'en'), 'max');

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

  // Events (spec 4.8): the scenarios of `npm run bench:events`, through the events service.
  const CalendarQuery = calendarParams(config);
  const UpcomingQuery = upcomingParams(config);
  const eventsEngine = engineTime(async (q, path) => {
    if (path.startsWith('/v1/events/calendar')) return services.events.calendar(CalendarQuery.parse(q));
    const u = UpcomingQuery.parse(q);
    return services.events.upcoming(u, 'en').catch((err: Error) => {
      if (!u.cursor) throw err;
      throw new BenchError(
        `the service's upcoming cursor cannot be read here (${err.message}): run the benchmark with the ` +
          "service's CURSOR_SECRET",
      );
    });
  });
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

  const pct = (xs: number[], p: number) => percentile(xs, p / 100);

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
