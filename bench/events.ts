import { argValue, baseUrl, measure, printTable, type Measured } from './lib.ts';

/**
 * Events read paths under load: the calendar strip over 30 days and the upcoming list, against a
 * running read API at BASE_URL (default http://127.0.0.1:8080) whose index holds the demo catalog
 * (`npx tsx indexer/src/cli.ts demo load --events 5000`). Each scenario cycles through several
 * filter shapes so that it is not one cached query. Prints p50/p99 latency and requests/s at 1
 * and 32 connections (`--connections 1,32 --duration 10`).
 *
 * The service's per-address rate limit must be raised for a run (RATE_LIMIT_ADDRESS_PER_MIN),
 * or most answers are 429 and the run fails.
 */
const base = baseUrl();
const connections = argValue('connections', '1,32').split(',').map(Number);
const durationS = Number(argValue('duration', '10'));

async function getJson(path: string): Promise<any> {
  const res = await fetch(`${base}${path}`);
  if (!res.ok) throw new Error(`GET ${path}: HTTP ${res.status} ${await res.text()}`);
  return res.json();
}

const categories: Array<{ code: string }> = await getJson('/v1/events/categories');
const probe = await getJson('/v1/events/upcoming?with_total=true&days=180&limit=100');
if (!probe.total) throw new Error('The events index is empty: load the demo catalog first.');
const page2 = probe.next_cursor ? `&cursor=${encodeURIComponent(probe.next_cursor)}` : '';
const cat = (i: number) => categories[i % categories.length]?.code ?? 'music';
console.log(`events in the 180-day horizon: ${probe.total}; categories: ${categories.length}`);

const shapes = [
  '',
  `&category=${cat(0)}`,
  `&category=${cat(1)},${cat(2)}`,
  '&time=evening',
  '&entry=free&audience=family',
  '&crowd=small,medium',
  '&q=beach',
  '&near=7.8804,98.3923&radius_m=15000',
];

const scenarios: Array<{ name: string; paths: string[] }> = [
  { name: 'calendar days=30', paths: shapes.map((s) => `/v1/events/calendar?days=30${s}`) },
  { name: 'upcoming (30 days)', paths: shapes.map((s) => `/v1/events/upcoming?limit=20${s}`) },
  {
    name: 'upcoming with_total, page 2',
    paths: [`/v1/events/upcoming?with_total=true&days=180&limit=100${page2}`, '/v1/events/upcoming?with_total=true'],
  },
];

const rows: Measured[] = [];
for (const s of scenarios) {
  for (const c of connections) {
    rows.push(
      await measure({
        name: s.name,
        url: base,
        connections: c,
        durationS,
        requests: s.paths.map((path) => ({ method: 'GET', path })),
      }),
    );
  }
}
printTable(rows as unknown as Array<Record<string, unknown>>);
if (rows.some((r) => r.errors > 0 || r.non2xx > 0)) process.exitCode = 1;
