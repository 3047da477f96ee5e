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
  /** Stops the run at the first answer outside 2xx: error answers are not what is being timed. */
  stopOnNon2xx?: boolean;
}

/** A measurement and the HTTP status codes it received (status → count). */
export interface MeasuredDetail {
  measured: Measured;
  statusCodes: Record<string, number>;
}

/** The promise autocannon returns is also its run tracker (an event emitter that can be stopped). */
type AutocannonRun = Promise<autocannon.Result> & {
  on(
    event: 'response',
    listener: (client: unknown, statusCode: number, bytes: number, responseTimeMs: number) => void,
  ): void;
  stop(): void;
};

/** Runs autocannon against a running service; benchmarks never start the service themselves. */
export async function measureDetailed(o: MeasureOptions): Promise<MeasuredDetail> {
  const run = autocannon({
    url: o.url,
    connections: o.connections,
    // By count or by time (autocannon refuses a `duration` key without a value).
    ...(o.amount ? { amount: o.amount } : { duration: o.durationS ?? 10 }),
    method: o.method ?? 'GET',
    headers: o.headers,
    body: o.body,
    requests: o.requests as never,
  } as never) as unknown as AutocannonRun;
  // autocannon ends a run at its next whole-second sample, so a run by count is timed here, from
  // its start to its last answer.
  const started = performance.now();
  let lastAnswer = started;
  if (o.amount) run.on('response', () => void (lastAnswer = performance.now()));
  // autocannon's own percentiles come from a histogram of whole milliseconds: every answer faster
  // than 1 ms reads 0, which hides the gap between two sides that both answer in under 1 ms. Its
  // 'response' event carries the time to the microsecond; the percentiles are taken from those.
  const latencies: number[] = [];
  run.on('response', (_client, status, _bytes, ms) => {
    if (status >= 200 && status < 300) latencies.push(ms);
  });
  if (o.stopOnNon2xx) {
    run.on('response', (_client, status) => {
      if (status < 200 || status > 299) run.stop();
    });
  }
  const result = await run;
  const statusCodes: Record<string, number> = {};
  for (const [code, s] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = s.count ?? 0;
  return {
    measured: {
      name: o.name,
      connections: o.connections,
      requests: result.requests.total,
      rps: o.amount
        ? Math.round(result.requests.total / ((lastAnswer - started) / 1000))
        : Math.round(result.requests.average),
      p50_ms: latencies.length ? roundMs(percentile(latencies, 0.5)) : result.latency.p50,
      p99_ms: latencies.length ? roundMs(percentile(latencies, 0.99)) : result.latency.p99,
      errors: result.errors + result.timeouts,
      non2xx: result.non2xx,
    },
    statusCodes,
  };
}

/** The q-quantile of the values by nearest rank (as HdrHistogram reports it); 0 when there are none. */
export function percentile(values: readonly number[], q: number): number {
  if (!values.length) return 0;
  const sorted = Float64Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/** A latency as every benchmark shows it: measured to the microsecond, shown to 0.01 ms. */
export const roundMs = (ms: number): number => Math.round(ms * 100) / 100;

export async function measure(o: MeasureOptions): Promise<Measured> {
  return (await measureDetailed(o)).measured;
}

/** A benchmark that cannot measure what it should: printed as a message, exit code 1. */
export class BenchError extends Error {}

const RATE_LIMIT_HINT =
  'the service rate-limits this address: restart it with RATE_LIMIT_ADDRESS_PER_MIN raised ' +
  '(e.g. RATE_LIMIT_ADDRESS_PER_MIN=10000000 npm start), see README "Benchmarks and the relevance suite"';

/** What an answer outside 2xx means for a benchmark, with the fix for the usual cause (429). */
export function non2xxMessage(what: string, statusCodes: Record<string, number>, body?: string): string {
  const bad = Object.entries(statusCodes).filter(([code]) => !code.startsWith('2'));
  const codes = bad.map(([code, n]) => `${n}× HTTP ${code}`).join(', ');
  const lines = [`${what}: the service answered ${codes || 'outside 2xx'}; error answers are not timed.`];
  if (body) lines.push(`  answer: ${body.slice(0, 300)}`);
  if (statusCodes['429']) lines.push(`  ${RATE_LIMIT_HINT}.`);
  return lines.join('\n');
}

/** GET a JSON answer of the service; anything but 2xx is a BenchError saying what came back. */
export async function getJson<T = any>(base: string, path: string): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${base}${path}`);
  } catch (err) {
    throw new BenchError(`GET ${base}${path}: ${(err as Error).message}: is the service running at ${base}?`);
  }
  if (!res.ok) throw new BenchError(non2xxMessage(`GET ${path}`, { [res.status]: 1 }, await res.text()));
  return (await res.json()) as T;
}

/** Asks every path once before timing: a benchmark of error answers fails here, with a reason. */
export async function checkPaths(base: string, paths: string[]): Promise<void> {
  for (const path of paths) await getJson(base, path);
}

/** Top-level handler of a benchmark: a BenchError is printed as a plain message; exit code 1. */
export function failLoudly(err: unknown): never {
  console.error(
    `\nBENCHMARK FAILED: ${err instanceof BenchError ? err.message : ((err as Error)?.stack ?? String(err))}`,
  );
  process.exit(1);
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
