import autocannon from 'autocannon';

export interface Measured {
  name: string;
  connections: number;
  requests: number;
  rps: number;
  p50_ms: number;
  p99_ms: number;
  errors: number;
  non2xx: number;
}

export interface MeasureOptions {
  name: string;
  url: string;
  connections: number;
  durationS?: number;
  amount?: number;
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  /** Several request shapes, cycled through, so a benchmark is not one cached query. */
  requests?: Array<{ method?: string; path: string; headers?: Record<string, string>; body?: string }>;
}

/** Runs autocannon against a running service; benchmarks never start the service themselves. */
export async function measure(o: MeasureOptions): Promise<Measured> {
  const result = await autocannon({
    url: o.url,
    connections: o.connections,
    duration: o.amount ? undefined : (o.durationS ?? 10),
    amount: o.amount,
    method: o.method ?? 'GET',
    headers: o.headers,
    body: o.body,
    requests: o.requests as never,
  } as never);
  return {
    name: o.name,
    connections: o.connections,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50_ms: result.latency.p50,
    p99_ms: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

export function printTable(rows: Array<Record<string, unknown>>): void {
  if (!rows.length) return;
  const cols = Object.keys(rows[0]!);
  const width = cols.map((c) => Math.max(c.length, ...rows.map((r) => String(r[c] ?? '').length)));
  const line = (vals: string[]) => vals.map((v, i) => v.padEnd(width[i]!)).join('  ');
  console.log(line(cols));
  console.log(line(width.map((w) => '-'.repeat(w))));
  for (const r of rows) console.log(line(cols.map((c) => String(r[c] ?? ''))));
}

export function baseUrl(): string {
  return process.env.BASE_URL ?? 'http://127.0.0.1:8080';
}

export function argValue(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}
