import { argValue, baseUrl, measure, printTable, type Measured } from './lib.ts';
import { eventScenarios } from './lib-events.ts';

/**
 * Events read paths under load: the calendar strip over 30 days and the upcoming list, against a
 * running read API at BASE_URL (default http://127.0.0.1:8080) whose index holds the demo catalog
 * (`npx tsx indexer/src/cli.ts demo load --events 5000`). Each scenario cycles through several
 * filter shapes so that it is not one cached query (the scenarios live in bench/lib-events.ts,
 * shared with `npm run bench:search`). Prints p50/p99 latency and requests/s at 1 and 32
 * connections (`--connections 1,32 --duration 10`).
 *
 * The service's per-address rate limit must be raised for a run (RATE_LIMIT_ADDRESS_PER_MIN),
 * or most answers are 429 and the run fails.
 */
const base = baseUrl();
const connections = argValue('connections', '1,32').split(',').map(Number);
const durationS = Number(argValue('duration', '10'));

const { scenarios, eventsInHorizon, categories } = await eventScenarios(base);
console.log(`events in the 180-day horizon: ${eventsInHorizon}; categories: ${categories}`);

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
