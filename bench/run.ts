import { argValue, baseUrl, measure, printTable, type Measured } from './lib.ts';

/**
 * Generic harness: `npm run bench -- --path /health --connections 1,32 --duration 10`
 * measures a running service at BASE_URL (default http://127.0.0.1:8080) and prints
 * p50/p99 latency and requests/s per concurrency. Feature benchmarks (bench/*.ts) reuse lib.ts.
 */
const path = argValue('path', '/health');
const connections = argValue('connections', '1,32')
  .split(',')
  .map((n) => Number(n));
const durationS = Number(argValue('duration', '10'));
const url = `${baseUrl()}${path}`;

const rows: Measured[] = [];
for (const c of connections) rows.push(await measure({ name: `GET ${path}`, url, connections: c, durationS }));
printTable(rows as unknown as Array<Record<string, unknown>>);
if (rows.some((r) => r.errors > 0)) process.exitCode = 1;
