import { z } from 'zod';
import { loadConfigOrExit } from '@guest/config';
import { aliasName, BASE_CURRENCY, LISTING_KINDS, type ListingKind } from '@guest/catalog';
import { createRuntime, type Runtime } from '@guest/runtime';
import { loadDemoCatalog } from '@guest/indexer';
import { SearchFilters, SORTS } from '../apps/read-api/src/search/filters.ts';
import { buildCountRequest, buildFeedRequest } from '../apps/read-api/src/search/feed.ts';
import { buildClusterRequest, buildPointsRequest, CLUSTER_MAX_ZOOM } from '../apps/read-api/src/search/map.ts';
import { buildHistogramRequest, buildPriceStatsRequest } from '../apps/read-api/src/search/price-range.ts';
import { buildListingSuggestRequest, buildPlaceSuggestRequest } from '../apps/read-api/src/search/suggest.ts';
import { FxRates } from '../apps/read-api/src/search/fx-rates.ts';
import type { QueryContext } from '../apps/read-api/src/search/query.ts';
import { argValue, baseUrl, measure, printTable } from './lib.ts';

/**
 * `npm run bench:search` — the search routes of spec 4.7 under load, against a running read API at
 * BASE_URL (default http://127.0.0.1:8080). For each scenario: p50, p99 and requests/s at 1 and 32
 * connections (autocannon, `--duration` seconds each), and beside them the engine's own `took`
 * (p50/p99) for the very same query bodies, asked directly from OpenSearch with the same pure
 * builders, so the API's overhead shows as a ratio (API p50 at 1 connection / engine took p50).
 *
 * This process reads the same environment as the service (DATABASE_URL, OPENSEARCH_URL,
 * INDEX_PREFIX): `--load 100000` first loads the demo catalog with that many listings into the
 * service's database and index through the indexer's demo loader. The service's per-address rate
 * limit must be raised for a run (RATE_LIMIT_ADDRESS_PER_MIN), or most answers are 429.
 */
const base = baseUrl();
const connections = argValue('connections', '1,32').split(',').map(Number);
const durationS = Number(argValue('duration', '10'));
const engineRuns = Number(argValue('engine-runs', '60'));
const load = process.argv.includes('--load') ? Number(argValue('load', '100000')) : 0;

const config = loadConfigOrExit();
const rt: Runtime = createRuntime(config);
if (load) {
  const r = await loadDemoCatalog(rt, { listings: load, events: 0 });
  console.log(`loaded demo catalog: ${JSON.stringify(r.import.byType.listing ?? r.import)}`);
}
const listingsIndex = aliasName(config.INDEX_PREFIX, 'listings');
const placesIndex = aliasName(config.INDEX_PREFIX, 'places');
const ctx: QueryContext = { fx: await new FxRates(rt.database.db).get(), baseCurrency: BASE_CURRENCY };

const countRes = await fetch(`${base}/v1/search/count`);
if (!countRes.ok) throw new Error(`GET /v1/search/count: HTTP ${countRes.status} ${await countRes.text()}`);
const { count } = (await countRes.json()) as { count: number };
const indexed = await rt.search.count(listingsIndex, { query: { match_all: {} } });
if (count !== indexed)
  throw new Error(
    `the service at ${base} sees ${count} listings, ${listingsIndex} holds ${indexed}: same INDEX_PREFIX?`,
  );
console.log(`listings in the index: ${count}`);

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
  /** Sum of `took` of the engine requests the route makes for one path. */
  engine: (path: string) => Promise<number>;
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
const countTook = async (path: string) => {
  // The count API reports no `took`: the same query as a size-0 search with an exact total.
  const filters = SearchFilters.parse(params(path.split('?')[1] ?? ''));
  return (
    await rt.search.search(listingsIndex, { ...buildCountRequest(filters, ctx), size: 0, track_total_hits: true })
  ).took;
};
const priceRange = async (path: string) => {
  const kind = params(path.split('?')[1] ?? '').kind as ListingKind | undefined;
  const stats = await rt.search.search(listingsIndex, buildPriceStatsRequest(kind));
  const max = stats.aggregations?.max?.value as number;
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
    engine: countTook,
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

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
};

const rows: Array<Record<string, unknown>> = [];
let failed = false;
for (const s of scenarios) {
  // The engine alone, same bodies, one at a time (warm: after one pass).
  for (const p of s.paths) await s.engine(p);
  const tooks: number[] = [];
  for (let i = 0; i < engineRuns; i++) tooks.push(await s.engine(s.paths[i % s.paths.length]!));
  const tookP50 = pct(tooks, 50);
  for (const c of connections) {
    const m = await measure({
      name: s.name,
      url: base,
      connections: c,
      durationS,
      requests: s.paths.map((path) => ({ method: 'GET', path })),
    });
    if (m.errors || m.non2xx) failed = true;
    rows.push({
      scenario: s.name,
      conns: c,
      'p50 ms': m.p50_ms,
      'p99 ms': m.p99_ms,
      'req/s': m.rps,
      'engine took p50': tookP50,
      'engine took p99': pct(tooks, 99),
      'p50/took': tookP50 ? (m.p50_ms / tookP50).toFixed(1) : 'n/a',
      errors: m.errors + m.non2xx,
    });
  }
}
printTable(rows);
await rt.close();
if (failed) process.exitCode = 1;
