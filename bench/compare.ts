import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { aliasName } from '@guest/catalog';
import { loadConfigOrExit, repoRoot, type Config } from '@guest/config';
import { ensureDatabaseExists, runMigrations } from '@guest/db';
import { createLogger, loadDemoCatalog, reindexAll, staleIndexKinds } from '@guest/indexer';
import { createRuntime } from '@guest/runtime';
import {
  argValue,
  BenchError,
  failLoudly,
  getJson,
  measureDetailed,
  printTable,
  roundMs,
  type Measured,
} from './lib.ts';
import { eventScenarios } from './lib-events.ts';
import { findNginx, startNginx, type Nginx } from './nginx-yardstick.ts';

/**
 * `npm run bench:compare -- --listings 100000` — the read API beside the engine it wraps, for
 * the very same engine requests, in one run:
 *
 * 1. Loads the demo catalog of `--listings` listings (and `--events`, default listings / 20)
 *    into its own database (`<DATABASE_URL's name>_cmp_<N>`) and index prefix
 *    (`<INDEX_PREFIX>-cmp<N>`), once: a later run with the same N reuses them.
 * 2. Starts the read API (`apps/read-api/src/main.ts`, a child process on PORT) behind a capture
 *    proxy to the engine, asks every path of every scenario once and records the engine
 *    requests each answer cost; then restarts the API talking to the engine directly.
 * 3. For each scenario and each of `--connections` (default 1,32): the API, then the captured
 *    engine requests replayed straight against the engine, then the floor, `--duration`
 *    seconds each with autocannon, alternating, so all sides see the same machine load. The
 *    floor (`bench/floor-proxy.ts`) is a bare Node.js server that makes the same captured engine
 *    requests per path and sends the engine's answer back: `floor ÷ eng` is what any Node.js
 *    layer in front of the engine costs on these cores, `api ÷ floor` what the API adds to it.
 *    When nginx is installed (`apt-get install nginx-light`; `--no-nginx` skips it), the engine
 *    requests are also replayed through nginx as a plain reverse proxy (`bench/nginx-yardstick.ts`):
 *    `nginx ÷ eng` is what the leanest process in front of the engine costs on the same cores.
 *
 * Engine figures are per API request: an API request that makes k engine requests (price range:
 * stats then histogram; suggest: places and listings side by side) is worth k engine requests,
 * so engine req/s is divided by k and its latencies multiplied by k (the upper bound for
 * requests made side by side). `api cpu ms/req` is the API process's CPU time over a run divided
 * by the requests it answered: unlike latencies, it hardly moves with the load other processes
 * put on the machine. `--only map,count` runs the scenarios whose names contain these words;
 * `--cpu-prof` writes the API's CPU profile to .data/bench/prof.
 * Runs on either engine: `SEARCH_ENGINE=elasticsearch SEARCH_URL=http://127.0.0.1:9250`.
 */
const listings = Number(argValue('listings', '100000'));
const events = Number(argValue('events', String(Math.max(500, Math.round(listings / 20)))));
const durationS = Number(argValue('duration', '10'));
const connections = argValue('connections', '1,32').split(',').map(Number);
const only = argValue('only', '');
const cpuProf = process.argv.includes('--cpu-prof');
const withMix = !process.argv.includes('--no-mix');
const withNginx = !process.argv.includes('--no-nginx');
const mixUnique = Number(argValue('mix-unique', '1500'));
const apiProcesses = Number(argValue('api-processes', '1'));
const outDir = path.join(repoRoot, '.data/bench');

const base = loadConfigOrExit();
const dbUrl = new URL(base.DATABASE_URL);
const dbName = `${dbUrl.pathname.slice(1)}_cmp_${listings}`;
dbUrl.pathname = `/${dbName}`;
const prefix = `${base.INDEX_PREFIX.replace(/-+$/, '')}-cmp${listings}`;
const config: Config = { ...base, DATABASE_URL: dbUrl.toString(), INDEX_PREFIX: prefix };
const engineUrl = config.SEARCH_URL.replace(/\/+$/, '');
const apiPort = config.PORT;
const api = `http://127.0.0.1:${apiPort}`;
const floorUrl = `http://127.0.0.1:${apiPort + 1}`;
const nginxPort = apiPort + 2;

/**
 * Centre of the street-level views (zoom 13 and more): the demo catalog's densest part of Phuket
 * (Patong), where a zoom-15 screen holds thousands of listings and the map samples 500 of them.
 * The middle of the island, used for the wider views, is empty at that zoom: a map with no
 * point is not what guests who zoom in look at.
 */
const DENSE: [number, number] = [7.8198, 98.2837];

/** Degrees of longitude across a screen of 1024 px at `zoom`. */
function screenWidth(zoom: number): number {
  return (360 / 2 ** zoom) * 4;
}

/**
 * The bbox of a screen (4 x 2.4 tiles) at `zoom`, `dLon` degrees east of its centre: the middle of
 * Phuket for the wider views, `DENSE` at street level (zoom 13 and more), where guests look.
 */
function screen(zoom: number, dLon = 0): string {
  const w = screenWidth(zoom);
  const h = w * 0.6;
  const [lat, lon0] = zoom >= 13 ? DENSE : [7.9, 98.34];
  const lon = lon0 + dLon;
  return `${(lon - w / 2).toFixed(5)},${(lat - h / 2).toFixed(5)},${(lon + w / 2).toFixed(5)},${(lat + h / 2).toFixed(5)}`;
}

interface Captured {
  method: string;
  path: string;
  body: string;
}

/** One API path of the mix and the engine requests it made when captured. */
interface MixItem {
  path: string;
  engine?: Captured[];
}

/** Repeated views (80 % of requests) and views asked once (20 %). */
interface Mix {
  views: MixItem[];
  unique: MixItem[];
  /** Views of the same kinds in neither pool: each side's warm-up before it is timed. */
  warmUp: MixItem[];
}

/** A captured engine request as autocannon sends it again. */
function replayed(r: Captured) {
  return {
    method: r.method,
    path: r.path,
    headers: { 'content-type': 'application/json' },
    ...(r.body ? { body: r.body } : {}),
  };
}

interface Scenario {
  name: string;
  paths: string[];
  /** Filled by the capture: the engine requests of every path, in order. */
  engine?: Captured[];
}

try {
  await main();
} catch (err) {
  failLoudly(err);
}

async function main(): Promise<void> {
  fs.mkdirSync(outDir, { recursive: true });
  await ensureLoaded();

  const proxy = await startCaptureProxy();
  let child = await startApi(`http://127.0.0.1:${proxy.port}`, false, false);
  let scenarios: Scenario[];
  let mix: Mix | null = null;
  const byPath: Record<string, Captured[]> = {};
  try {
    scenarios = await buildScenarios();
    for (const s of scenarios) {
      s.engine = [];
      for (const p of s.paths) {
        proxy.recording = [];
        await getJson(api, p);
        byPath[p] = proxy.recording;
        s.engine.push(...proxy.recording);
      }
      proxy.recording = null;
    }
    if (withMix) {
      mix = buildMix();
      for (const item of [...mix.views, ...mix.unique, ...mix.warmUp]) {
        proxy.recording = [];
        await getJson(api, item.path);
        item.engine = proxy.recording;
      }
      proxy.recording = null;
    }
  } finally {
    await stopApi(child);
    proxy.server.close();
  }

  if (mix) fs.writeFileSync(path.join(outDir, 'mix-captured.json'), JSON.stringify(mix));
  const floorFile = path.join(outDir, 'floor-captured.json');
  fs.writeFileSync(floorFile, JSON.stringify(byPath));
  const floor = scenarios.length ? await startFloor(floorFile) : null;
  const nginxBin = scenarios.length && withNginx ? findNginx() : null;
  if (scenarios.length && withNginx && !nginxBin)
    console.log('nginx not found (apt-get install nginx-light): no nginx column this run');
  const nginx: Nginx | null = nginxBin
    ? await startNginx({ bin: nginxBin, port: nginxPort, engineUrl, dir: path.join(outDir, 'nginx') })
    : null;
  try {
    child = await startApi(engineUrl, cpuProf, false);
  } catch (err) {
    if (floor) await stopApi(floor);
    if (nginx) await nginx.stop();
    throw err;
  }
  let rssMb = 0;
  const rows: Array<Record<string, unknown>> = [];
  const raw: Array<{
    scenario: string;
    api: Measured;
    engine: Measured;
    floor?: Measured;
    nginx?: Measured;
    perApiRequest: number;
  }> = [];
  try {
    for (const s of scenarios) {
      const perApiRequest = s.engine!.length / s.paths.length;
      const apiRequests = s.paths.map((p) => ({ method: 'GET', path: p }));
      const engineRequests = s.engine!.map(replayed);
      // Warm both sides (JIT, engine caches) before anything is timed.
      await run(`${s.name} warm-up`, api, 8, apiRequests, 1);
      await run(`${s.name} warm-up`, engineUrl, 8, engineRequests, 1);
      await run(`${s.name} warm-up`, floorUrl, 8, apiRequests, 1);
      if (nginx) await run(`${s.name} warm-up`, nginx.url, 8, engineRequests, 1);
      for (const c of connections) {
        const cpu0 = cpuMs(child);
        const a = await run(s.name, api, c, apiRequests, durationS);
        const cpuPerRequest = a.requests ? (cpuMs(child) - cpu0) / a.requests : 0;
        const e = await run(s.name, engineUrl, c, engineRequests, durationS);
        const floorCpu0 = cpuMs(floor!);
        const f = await run(s.name, floorUrl, c, apiRequests, durationS);
        const floorCpuPerRequest = f.requests ? (cpuMs(floor!) - floorCpu0) / f.requests : 0;
        // The same engine requests as `e`, through nginx.
        const n = nginx ? await run(s.name, nginx.url, c, engineRequests, durationS) : null;
        const eRps = e.rps / perApiRequest;
        const eP50 = e.p50_ms * perApiRequest;
        const eP99 = e.p99_ms * perApiRequest;
        raw.push({ scenario: s.name, api: a, engine: e, floor: f, ...(n ? { nginx: n } : {}), perApiRequest });
        rows.push({
          scenario: s.name,
          conns: c,
          'eng/api': perApiRequest.toFixed(2),
          'api req/s': a.rps,
          'eng req/s': Math.round(eRps),
          'ratio req/s': (a.rps / eRps).toFixed(2),
          'api p50': a.p50_ms,
          'eng p50': roundMs(eP50),
          'p50 +ms': roundMs(a.p50_ms - eP50),
          'api p99': a.p99_ms,
          'eng p99': roundMs(eP99),
          'ratio p99': (a.p99_ms / Math.max(eP99, 0.01)).toFixed(2),
          'api cpu ms/req': cpuPerRequest.toFixed(2),
          'floor req/s': f.rps,
          'floor ÷ eng': (f.rps / eRps).toFixed(2),
          'api ÷ floor': (a.rps / Math.max(f.rps, 1)).toFixed(2),
          'floor p99': f.p99_ms,
          'floor cpu ms/req': floorCpuPerRequest.toFixed(2),
          // Throughput only: autocannon's latencies through nginx do not agree with its own request
          // rate (at 1 connection, 2,100 req/s with a mean of 2 ms), where wrk's do.
          ...(n ? { 'nginx ÷ eng': (n.rps / e.rps).toFixed(2) } : {}),
          errors: a.errors + e.errors + a.non2xx + e.non2xx + f.errors + f.non2xx + (n ? n.errors + n.non2xx : 0),
        });
      }
    }
  } finally {
    rssMb = apiRssMb(child);
    await stopApi(child);
    if (floor) await stopApi(floor);
    if (nginx) await nginx.stop();
  }
  if (mix) {
    child = await startApi(engineUrl, cpuProf, true);
    try {
      await measureMix(mix, rows, raw, child);
      // How the cache served the mix: hits, misses, coalesced, bypassed (generation not current).
      const metrics = await (await fetch(`${api}/metrics`)).text();
      const outcomes = (metric: string) =>
        metrics
          .split('\n')
          .filter((l) => l.startsWith(`${metric}{`))
          .map((l) => l.replace(/^\w+\{outcome="(\w+)"\} /, '$1 '))
          .join(', ');
      console.log(`answer cache during the mix: ${outcomes('search_answer_cache_requests_total')}`);
      console.log(`engine-answer cache during the mix: ${outcomes('search_cache_requests_total')}`);
      console.log(`cluster map tiles during the mix: ${outcomes('search_cluster_tiles_total')}`);
    } finally {
      await stopApi(child);
    }
  }
  if (rows.length) {
    const stats = await indexStats();
    console.log(
      `\n${config.SEARCH_ENGINE} ${engineUrl}, ${listings} listings, ${events} events (index ${prefix}-*, database ${dbName}), ` +
        `${durationS}s per run; API resident memory at the end: ${rssMb} MB; ` +
        `index size: listings ${stats.listings} MB, places ${stats.places} MB, events ${stats.events} MB`,
    );
    printTable(rows);
    const file = path.join(outDir, `compare-${config.SEARCH_ENGINE}-${listings}.json`);
    const captured = scenarios.map((s) => ({ scenario: s.name, paths: s.paths, engine: s.engine }));
    fs.writeFileSync(file, JSON.stringify({ listings, events, rssMb, index: stats, rows, raw, captured }, null, 2));
    console.log(`\nraw figures: ${path.relative(repoRoot, file)}`);
  }
  if (rows.some((r) => Number(r.errors) > 0)) {
    console.error('\nsome runs had errors or answers outside 2xx (column errors): not a clean measurement.');
    process.exitCode = 1;
  }
}

function round1(n: number): number {
  return Math.round(n * 10) / 10;
}

async function run(
  name: string,
  url: string,
  c: number,
  requests: Array<{ method?: string; path: string; headers?: Record<string, string>; body?: string }>,
  seconds: number,
): Promise<Measured> {
  const { measured } = await measureDetailed({ name, url, connections: c, durationS: seconds, requests });
  return measured;
}

/** The demo catalog of this size in its own database and index prefix, loaded once. */
async function ensureLoaded(): Promise<void> {
  await ensureDatabaseExists(config.DATABASE_URL);
  await runMigrations(config.DATABASE_URL);
  const rt = createRuntime(config);
  try {
    const indexed = await rt.search.count(aliasName(prefix, 'listings'), { query: { match_all: {} } }).catch(() => 0);
    const { rows } = await rt.database.pool.query<{ n: string }>('select count(*) as n from listings');
    const stored = Number(rows[0]?.n ?? 0);
    if (stored >= listings && indexed > 0 && indexed >= stored * 0.9) {
      // Indices built from older mappings would time documents the API no longer reads as built.
      const stale = await staleIndexKinds(rt.search, prefix);
      if (stale.length) {
        console.log(`rebuilding ${prefix}-* from ${dbName}: ${stale.join(', ')} built from older mappings`);
        await reindexAll(rt, createLogger(rt, 'bench'));
      }
      console.log(`reusing ${dbName} (${stored} listings) and ${prefix}-* (${indexed} indexed)`);
      return;
    }
    console.log(`loading the demo catalog: ${listings} listings, ${events} events into ${dbName}, ${prefix}-*`);
    await loadDemoCatalog(rt, { listings, events });
  } finally {
    await rt.close();
  }
}

/** A pass-through to the engine that records the requests made while `recording` is set. */
async function startCaptureProxy(): Promise<{ server: http.Server; port: number; recording: Captured[] | null }> {
  const target = new URL(engineUrl);
  const agent = new http.Agent({ keepAlive: true });
  const state = { server: null as unknown as http.Server, port: 0, recording: null as Captured[] | null };
  state.server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      state.recording?.push({ method: req.method ?? 'GET', path: req.url ?? '/', body: body.toString('utf8') });
      const headers = { ...req.headers, host: target.host };
      const up = http.request(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent },
        (upRes) => {
          res.writeHead(upRes.statusCode ?? 502, upRes.headers);
          upRes.pipe(res);
        },
      );
      up.on('error', () => {
        res.writeHead(502);
        res.end();
      });
      up.end(body);
    });
  });
  state.server.listen(0, '127.0.0.1');
  await once(state.server, 'listening');
  state.port = (state.server.address() as AddressInfo).port;
  return state;
}

/**
 * The read API alone, as `apps/read-api/src/main.ts` runs it, on PORT, with the bench's data:
 * `--api-processes` processes sharing the port (`HTTP_REUSE_PORT`) when more than one.
 */
async function startApi(searchUrl: string, profile: boolean, cache: boolean): Promise<ChildProcess[]> {
  const args = [
    ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${path.join(outDir, 'prof')}`] : []),
    '--import',
    'tsx',
    'apps/read-api/src/main.ts',
  ];
  const logs = Array.from({ length: apiProcesses }, (_, i) =>
    path.join(outDir, apiProcesses > 1 ? `compare-api-${i + 1}.log` : 'compare-api.log'),
  );
  const children = logs.map((file) => {
    const size = fs.existsSync(file) ? fs.statSync(file).size : 0;
    const log = fs.openSync(file, 'a');
    const child = spawn(process.execPath, args, {
      cwd: repoRoot,
      stdio: ['ignore', log, log],
      env: {
        ...process.env,
        DATABASE_URL: config.DATABASE_URL,
        INDEX_PREFIX: prefix,
        SEARCH_URL: searchUrl,
        OPENSEARCH_URL: searchUrl,
        PORT: String(apiPort),
        ...(apiProcesses > 1 ? { HTTP_REUSE_PORT: 'true' } : {}),
        // Every request of a benchmark comes from one address: the limit is counted, never reached.
        RATE_LIMIT_ADDRESS_PER_MIN: '1000000000',
        // The scenarios repeat a few paths: with the result cache they would time the cache. It is
        // on only for the mix of repeated views, which is what it is for.
        ...(cache ? {} : { SEARCH_CACHE_TTL_MS: '0' }),
      },
    });
    fs.closeSync(log);
    return { child, file, size };
  });
  const listening = ({ file, size }: { file: string; size: number }) => {
    const fd = fs.openSync(file, 'r');
    try {
      const buf = Buffer.alloc(Math.max(0, fs.fstatSync(fd).size - size));
      fs.readSync(fd, buf, 0, buf.length, size);
      return buf.toString('utf8').includes('Server listening');
    } finally {
      fs.closeSync(fd);
    }
  };
  for (let i = 0; i < 300; i++) {
    const dead = children.find((c) => c.child.exitCode !== null);
    if (dead)
      throw new BenchError(`the read API exited (${dead.child.exitCode}): see ${path.relative(repoRoot, dead.file)}`);
    if (children.every(listening)) {
      try {
        const res = await fetch(`${api}/health`);
        if (res.status < 500) return children.map((c) => c.child);
      } catch {
        // not answering yet
      }
    }
    await sleep(200);
  }
  for (const c of children) c.child.kill('SIGTERM');
  throw new BenchError(`the read API did not answer on ${api} within 60 s: see .data/bench/compare-api*.log`);
}

/** `bench/floor-proxy.ts` on PORT + 1: the captured engine requests behind the least a Node.js server does. */
async function startFloor(file: string): Promise<ChildProcess> {
  const log = fs.openSync(path.join(outDir, 'compare-floor.log'), 'a');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/floor-proxy.ts', String(apiPort + 1), engineUrl, file],
    { cwd: repoRoot, stdio: ['ignore', 'pipe', log] },
  );
  fs.closeSync(log);
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => {
      if (d.toString().includes('listening')) resolve();
    });
    child.once('exit', (code) =>
      reject(new BenchError(`the floor proxy exited (${code}): see .data/bench/compare-floor.log`)),
    );
  });
  await Promise.race([
    ready,
    sleep(60_000).then(() => {
      throw new BenchError('the floor proxy did not start within 60 s');
    }),
  ]);
  return child;
}

async function stopApi(children: ChildProcess | ChildProcess[]): Promise<void> {
  await Promise.all((Array.isArray(children) ? children : [children]).map(stopOne));
}

async function stopOne(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  await Promise.race([once(child, 'exit'), sleep(15_000)]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/** CPU time (user + system) the processes have used so far, in ms. */
function cpuMs(children: ChildProcess | ChildProcess[]): number {
  return (Array.isArray(children) ? children : [children]).reduce((sum, c) => sum + cpuMsOf(c), 0);
}

function cpuMsOf(child: ChildProcess): number {
  try {
    const stat = fs.readFileSync(`/proc/${child.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime (fields 14 and 15 of stat(5)) in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

function apiRssMb(children: ChildProcess[]): number {
  return children.reduce((sum, c) => sum + rssMbOf(c), 0);
}

function rssMbOf(child: ChildProcess): number {
  try {
    const status = fs.readFileSync(`/proc/${child.pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return 0;
  }
}

/**
 * Forgets the engine's own request cache (aggregations and counts of size-0 searches): the
 * capture and the previous run asked every view already, and a view asked once must cost the
 * engine what a view nobody asked before costs.
 */
async function clearEngineRequestCache(): Promise<void> {
  const res = await fetch(`${engineUrl}/${prefix}-*/_cache/clear?request=true`, { method: 'POST' });
  if (!res.ok) throw new BenchError(`clearing the engine's request cache: ${res.status} ${await res.text()}`);
}

async function indexStats(): Promise<Record<'listings' | 'places' | 'events', number>> {
  const size = async (kind: 'listings' | 'places' | 'events') => {
    try {
      const res = await fetch(`${engineUrl}/${aliasName(prefix, kind)}/_stats/store`);
      const b = (await res.json()) as { _all?: { primaries?: { store?: { size_in_bytes?: number } } } };
      return round1((b._all?.primaries?.store?.size_in_bytes ?? 0) / 1024 / 1024);
    } catch {
      return 0;
    }
  };
  return { listings: await size('listings'), places: await size('places'), events: await size('events') };
}

async function buildScenarios(): Promise<Scenario[]> {
  // A screen around Phuket at each zoom (4 x 2.4 tiles).
  const filterShapes = [
    'kind=stay&bedrooms_min=2&amenities=pool',
    'kind=food&diets=vegan',
    'kind=experience&rating_min=4.5&sort=rating',
    `bbox=${screen(11)}&instant_book=true`,
    'kind=stay&price_max=500000&sort=price_asc',
    'near=7.8804,98.3923&radius_m=5000&sort=distance',
  ];
  const textShapes = ['q=Kata', 'q=villa', 'q=%D0%9F%D1%85%D1%83%D0%BA%D0%B5%D1%82', 'q=massage%20Patong', 'q=diving'];
  const ev = await eventScenarios(api);
  const calendar = ev.scenarios.find((s) => s.name.startsWith('calendar'))!;
  const upcoming = ev.scenarios.find((s) => s.name.startsWith('upcoming ('))!;
  const all: Scenario[] = [
    {
      name: 'feed plain',
      paths: ['/v1/search/listings', '/v1/search/listings?sort=new', '/v1/search/listings?sort=price_asc'],
    },
    { name: 'feed filters', paths: filterShapes.map((s) => `/v1/search/listings?${s}`) },
    { name: 'feed q', paths: textShapes.map((s) => `/v1/search/listings?${s}`) },
    { name: 'count', paths: ['', ...filterShapes, ...textShapes.slice(0, 2)].map((s) => `/v1/search/count?${s}`) },
    ...[5, 10, 15].map((zoom) => ({
      name: `map zoom ${zoom}`,
      paths: ['', '&kind=stay', '&kind=food&rating_min=4'].map(
        (s) => `/v1/search/map?zoom=${zoom}&bbox=${screen(zoom)}${s}`,
      ),
    })),
    {
      name: 'price range',
      paths: ['', 'kind=stay', 'kind=food', 'kind=experience'].map((s) => `/v1/search/price-range?${s}`),
    },
    {
      name: 'suggest',
      paths: ['Ka', 'Kata', 'Пху', 'phu', 'villa', 'mass'].map((q) => `/v1/search/suggest?q=${encodeURIComponent(q)}`),
    },
    { name: 'calendar', paths: calendar.paths },
    { name: 'upcoming', paths: upcoming.paths },
  ];
  return only ? all.filter((s) => only.split(',').some((o) => s.name.includes(o))) : all;
}

/**
 * Many guests open the same start views: 80 % of requests go to 20 views (map at several
 * zooms, counts, price ranges, suggest, first feed pages), 20 % are views asked once, each one
 * of those views with a parameter of its own. Each side runs the same sequence of
 * 5 × `--mix-unique` requests, so every view of the unique pool is asked exactly once on each
 * side, whatever either side's speed.
 */
function buildMix(): Mix {
  const views = [
    ...[5, 10, 12, 15].map((z) => `/v1/search/map?zoom=${z}&bbox=${screen(z)}`),
    ...[10, 12].map((z) => `/v1/search/map?zoom=${z}&bbox=${screen(z)}&kind=stay`),
    '/v1/search/count',
    '/v1/search/count?kind=stay',
    '/v1/search/count?kind=food',
    '/v1/search/count?kind=experience',
    '/v1/search/price-range',
    '/v1/search/price-range?kind=stay',
    '/v1/search/suggest?q=Ka',
    '/v1/search/suggest?q=Kata',
    '/v1/search/suggest?q=phu',
    '/v1/search/listings',
    '/v1/search/listings?kind=stay',
    '/v1/search/listings?sort=price_asc',
    '/v1/search/listings?kind=food',
    '/v1/search/listings?q=villa',
  ].map((path) => ({ path }));
  // Views asked once: each is one of the repeated views with a parameter of its own, so both
  // halves hold the same kinds of request in the same proportions: a map moved by up to a
  // screen, a count or feed with a price bound, a suggest with a word more; after a price range
  // the guest pages the feed up to a price.
  const asked = (i: number): MixItem => {
    const u = new URL(views[i % views.length]!.path, 'http://mix');
    const q = u.searchParams;
    if (u.pathname.endsWith('/map')) {
      const zoom = Number(q.get('zoom'));
      // Within a screen either way, a different place for every i (golden-ratio steps).
      const spread = ((i * 0.6180339887498949) % 1) * 2 - 1;
      q.set('bbox', screen(zoom, spread * screenWidth(zoom)));
    } else if (u.pathname.endsWith('/suggest')) {
      q.set('q', `${q.get('q')} ${i}`);
    } else {
      if (u.pathname.endsWith('/price-range')) u.pathname = '/v1/search/listings';
      q.set('price_max', String(100_000 + i * 37));
    }
    return { path: `${u.pathname}?${q.toString().replace(/%2C/g, ',')}` };
  };
  const unique = Array.from({ length: mixUnique }, (_, i) => asked(i));
  const warmUp = Array.from({ length: Math.ceil(mixUnique / 2) }, (_, i) => asked(mixUnique + i));
  return { views, unique, warmUp };
}

/** The mix at 32 connections: the API with its result cache, then the engine alone. */
async function measureMix(
  mix: Mix,
  rows: Array<Record<string, unknown>>,
  raw: Array<{ scenario: string; api: Measured; engine: Measured; floor?: Measured; perApiRequest: number }>,
  apiChildren: ChildProcess[],
): Promise<void> {
  // One sequence: four of five requests a repeated view (in a fixed pseudo-random order, every
  // view about as often), the fifth the next view of the unique pool. The generator works in
  // exact 32-bit steps and picks by its high bits: an LCG's low bits cycle with a short period
  // (taken modulo 20, the low bits of the earlier version sent 99 % of the repeats to 5 views).
  const sequence = (): (() => MixItem) => {
    let n = 0;
    let u = 0;
    let seed = 12345;
    return () => {
      if (++n % 5 === 0) return mix.unique[u++ % mix.unique.length]!;
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return mix.views[(seed >>> 16) % mix.views.length]!;
    };
  };
  // A run by count, not by time: a faster side that ran out of unique views would go on to
  // repeat them, and the cache would serve the repeats (a 10 s run read 6 ×, a 5 s one 1.7 ×).
  const apiRequests = 5 * mix.unique.length;
  let engineRequests = 0;
  const counting = sequence();
  for (let i = 0; i < apiRequests; i++) engineRequests += counting().engine?.length ?? 0;
  const apiNext = sequence();
  const engineItems = sequence();
  let queue: Captured[] = [];
  const nextEngine = () => {
    while (!queue.length) queue = [...(engineItems().engine ?? [])];
    return queue.shift()!;
  };
  const c = 32;
  const onApi = (name: string, amount: number, next: () => string) =>
    measureDetailed({
      name,
      url: api,
      connections: c,
      amount,
      requests: [
        { setupRequest: (req: Record<string, unknown>) => ({ ...req, method: 'GET', path: next() }) } as never,
      ],
    });
  const onEngine = (name: string, amount: number, next: () => Captured) =>
    measureDetailed({
      name,
      url: engineUrl,
      connections: c,
      amount,
      requests: [{ setupRequest: (req: Record<string, unknown>) => ({ ...req, ...replayed(next()) }) } as never],
    });
  const inOrder = <T>(list: T[]) => {
    let i = 0;
    return () => list[i++ % list.length]!;
  };
  // Each side warmed up on views of the mix's kinds that are in neither pool (a fresh API's
  // first thousand requests run before the JIT has compiled them), then the engine's request
  // cache emptied, so that what the warm-up or the side before asked is not served from it.
  const warmUpEngine = mix.warmUp.flatMap((item) => item.engine ?? []);
  await onApi('mix warm-up', mix.warmUp.length, inOrder(mix.warmUp.map((item) => item.path)));
  await clearEngineRequestCache();
  const cpu0 = cpuMs(apiChildren);
  const apiRun = await onApi('mix 80/20', apiRequests, () => apiNext().path);
  const apiCpuPerRequest = (cpuMs(apiChildren) - cpu0) / apiRequests;
  await onEngine('mix warm-up', warmUpEngine.length, inOrder(warmUpEngine));
  await clearEngineRequestCache();
  const engineRun = await onEngine('mix 80/20', engineRequests, nextEngine);
  // What no cache in front of the engine can avoid: the engine answering the requests of the
  // views it has not seen (each repeated view once, then the unique pool), alone. The API's
  // throughput cannot exceed the mix's size over that time, so the ratio of this bound to the
  // engine-direct mix is the best the mix can read on this machine.
  const unavoidable = [...mix.views, ...mix.unique].flatMap((item) => item.engine ?? []);
  await clearEngineRequestCache();
  const floorRun = await onEngine('mix 80/20, unseen views only', unavoidable.length, inOrder(unavoidable));
  const a = apiRun.measured;
  const e = engineRun.measured;
  const perApiRequest = engineRequests / apiRequests;
  const unavoidableSeconds = unavoidable.length / floorRun.measured.rps;
  const bestApiRps = apiRequests / unavoidableSeconds;
  console.log(
    `mix bound: the engine alone answers the ${unavoidable.length} requests of the views no cache has seen in ` +
      `${unavoidableSeconds.toFixed(2)} s, so the API can serve at most ${Math.round(bestApiRps)} req/s of the mix: ` +
      `${(bestApiRps / (e.rps / perApiRequest)).toFixed(2)} × engine-direct`,
  );
  const eRps = e.rps / perApiRequest;
  raw.push({ scenario: 'mix 80/20 (cache on)', api: a, engine: e, perApiRequest });
  rows.push({
    scenario: 'mix 80/20 cached',
    conns: c,
    'eng/api': perApiRequest.toFixed(2),
    'api req/s': a.rps,
    'eng req/s': Math.round(eRps),
    'ratio req/s': (a.rps / eRps).toFixed(2),
    'api p50': a.p50_ms,
    'eng p50': roundMs(e.p50_ms * perApiRequest),
    'p50 +ms': roundMs(a.p50_ms - e.p50_ms * perApiRequest),
    'api p99': a.p99_ms,
    'eng p99': roundMs(e.p99_ms * perApiRequest),
    'ratio p99': (a.p99_ms / Math.max(e.p99_ms * perApiRequest, 0.01)).toFixed(2),
    'api cpu ms/req': apiCpuPerRequest.toFixed(2),
    errors: a.errors + e.errors + a.non2xx + e.non2xx,
  });
}
