import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeApi } from '@guest/write-api';
import { readApi } from '@guest/read-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { http, type HttpResult } from '../support/http.ts';
import {
  privatePostgres,
  privateRedis,
  privateSearchEngine,
  sqlPool,
  type PrivateSearchEngine,
  type PrivateServer,
} from '../support/private-services.ts';
import { guardSharedEngine } from '../support/shared-engine.ts';
import { eventually } from '../support/eventually.ts';
import { loadCatalog } from '../read-api/search/support.ts';
import { PASSWORD, relaxedLimits, uniqueEmail } from '../security/support.ts';

/**
 * Issue 14 point 5: Redis, Postgres and the search engine each stop and start again while a light
 * load runs (two clients, each a request about every 100 ms), and the API, never restarted:
 * - answers no 500 and nothing slower than 1 s; an answer that needs the missing service is 503
 *   `unavailable` with `Retry-After` (and an envelope and a request id, like every answer);
 * - recovers by itself once the service is back: every route answers 2xx again;
 * - loses nothing: each registration answered 201, before, during or after an outage, is in the
 *   database with its session, and each one answered 503 left no row at all (not half-written);
 *   the saved search filters are the last ones a 200 accepted.
 *
 * The services are the test's own (a redis-server, a Postgres cluster made with initdb and
 * migrated by the project's migrations, a one-node OpenSearch from the stack module in a
 * temporary directory), on free ports: the shared ones are never stopped (for the search engine
 * the suite proves it, guardSharedEngine). The outage timings (time to the first 503, slowest
 * answer during the outage, time to full recovery) are printed.
 */
guardSharedEngine('dependency-restarts');

/** Answers of each client in a phase before it ends: before, during and after an outage. */
const TURNS = 3;
const SLOWEST_MS = 1000;
/** How long the API may take to answer 2xx on every route once the service is back. */
const RECOVERY_LIMIT_MS = 30_000;

interface Answer {
  label: string;
  /** Which outage it belongs to, and when: before, during, recovering (service back, API not yet) or after. */
  phase: string;
  at: number;
  ms: number;
  res: HttpResult;
}
interface Registration {
  email: string;
  status: number;
}

let redis: PrivateServer | undefined;
let postgres: PrivateServer | undefined;
let search: PrivateSearchEngine | undefined;
let t: TestApp;
let token: string;
const answers: Answer[] = [];
const registrations: Registration[] = [];
let lastFilters: string | undefined;
const report: string[] = [];
let phase = 'warm-up';

const now = () => performance.now();
/** The pace of the load: a client's pause between two requests (not a wait for anything). */
const pace = () => new Promise((r) => setTimeout(r, 100));

async function call(label: string, method: string, url: string, opts: Parameters<typeof http>[3] = {}) {
  const at = now();
  const res = await http(t.url, method, url, opts);
  answers.push({ label, phase, at, ms: now() - at, res });
  return res;
}

/** The routes the load goes through: each needs a different mix of the three services. */
const probes = {
  categories: () => call('GET /v1/categories', 'GET', '/v1/categories?kind=experience'),
  search: () => call('GET /v1/search/listings', 'GET', '/v1/search/listings?limit=5'),
  me: () => call('GET /v1/me', 'GET', '/v1/me', { token }),
  filters: async () => {
    const value = `q-${Math.random().toString(36).slice(2)}`;
    const res = await call('PUT /v1/me/search-filters', 'PUT', '/v1/me/search-filters', {
      token,
      body: { stay: { query: value } },
    });
    if (res.status === 200) lastFilters = value;
    return res;
  },
  register: async () => {
    const email = uniqueEmail('outage');
    const res = await call('POST /v1/auth/register', 'POST', '/v1/auth/register', {
      body: { first_name: 'Ola', last_name: 'Nordmann', email, password: PASSWORD, accept_terms: true },
    });
    registrations.push({ email, status: res.status });
    return res;
  },
};
type Probe = keyof typeof probes;

/**
 * Two clients: one reads (categories, search, me), one writes (filters, and a registration every
 * third turn, argon2 being the heaviest thing the API does); each waits ~100 ms between requests.
 */
function startLoad(): () => Promise<void> {
  let running = true;
  const reader = (async () => {
    for (let i = 0; running; i++) {
      await [probes.categories, probes.search, probes.me][i % 3]!();
      await pace();
    }
  })();
  const writer = (async () => {
    for (let i = 0; running; i++) {
      await (i % 3 === 2 ? probes.register : probes.filters)();
      await pace();
    }
  })();
  return async () => {
    running = false;
    await Promise.all([reader, writer]);
  };
}

/** Every probe answered 2xx in a row: the API has recovered. */
async function untilAllOk(probesToCheck: Probe[]): Promise<void> {
  await eventually(
    'every route to answer 2xx',
    async () => {
      const results = await Promise.all(probesToCheck.map((p) => probes[p]()));
      return probesToCheck.map((p, i) => ({ probe: p, status: results[i]!.status }));
    },
    { timeoutMs: RECOVERY_LIMIT_MS, until: (seen) => seen.every((r) => r.status >= 200 && r.status < 300) },
  );
}

/** Both clients of the load have answered `TURNS` requests each in the current phase. */
async function untilLoadAnswered(what: string, extra: (a: Answer[]) => boolean = () => true): Promise<void> {
  const current = phase;
  await eventually(what, () => answers.filter((a) => a.phase === current), {
    timeoutMs: 60_000,
    until: (inPhase) => inPhase.length >= 2 * TURNS && extra(inPhase),
  });
}

const readyz = async () => (await http(t.url, 'GET', '/readyz')).body?.checks as Record<string, { status: string }>;

/**
 * Stops `service` under load, checks what the API answers meanwhile, starts it again and waits
 * for every route to answer 2xx; returns the outage's figures.
 */
async function outage(
  name: string,
  service: { stop(): Promise<void>; start(): Promise<void> },
  check: 'database' | 'cache' | 'search',
  needs: Probe,
) {
  phase = `${name}: before`;
  const stopLoad = startLoad();
  await untilLoadAnswered(`the load to be answered before the ${name} outage`);
  const from = answers.length;
  phase = `${name}: during`;
  const stopAt = now();
  await service.stop();
  const stopped = now();
  // The outage lasts until the load has gone through it, the route that needs the service refused.
  await untilLoadAnswered(`the load to run through the ${name} outage, ${probeLabel(needs)} refused`, (during) =>
    during.some((a) => a.at >= stopped && a.res.status === 503 && a.label === probeLabel(needs)),
  );
  const ready = await readyz();
  const startAt = now();
  await service.start();
  const started = now();
  phase = `${name}: recovering`;
  await untilAllOk(['categories', 'search', 'me', 'filters', 'register']);
  const recovered = now();
  phase = `${name}: after`;
  await untilLoadAnswered(`the load to be answered after the ${name} outage`);
  await stopLoad();

  const during = answers.slice(from).filter((a) => a.at >= stopAt && a.at <= started);
  const firstRefusal = during.find((a) => a.res.status === 503)?.at;
  const refused = during.filter((a) => a.res.status === 503);
  const recovering = answers.slice(from).filter((a) => a.at > started);
  const line =
    `${name}: stop took ${Math.round(stopped - stopAt)} ms, first 503 ${firstRefusal === undefined ? 'none' : `${Math.round(firstRefusal - stopAt)} ms`} after the stop began, ` +
    `${refused.length} of ${during.length} answers 503 during the outage, slowest answer ${slowest(during)}; ` +
    `start took ${Math.round(started - startAt)} ms, every route 2xx ${Math.round(recovered - started)} ms after it was back ` +
    `(slowest answer from then on ${slowest(recovering)})`;
  report.push(line);
  console.info(`[dependency-restarts] ${line}`);

  expect(ready[check]?.status, `/readyz during the ${name} outage`).toBe('down');
  expect(
    during.some((a) => a.res.status === 503 && a.label === probeLabel(needs)),
    `${probeLabel(needs)} answered 503 while ${name} was down`,
  ).toBe(true);
  expect((await http(t.url, 'GET', '/readyz')).status).toBe(200);
}

function slowest(of: Answer[]): string {
  const worst = of.reduce<Answer | undefined>((w, a) => (w && w.ms >= a.ms ? w : a), undefined);
  return worst ? `${Math.round(worst.ms)} ms, ${worst.label} ${worst.res.status}` : 'none';
}

function probeLabel(p: Probe): string {
  return {
    categories: 'GET /v1/categories',
    search: 'GET /v1/search/listings',
    me: 'GET /v1/me',
    filters: 'PUT /v1/me/search-filters',
    register: 'POST /v1/auth/register',
  }[p];
}

beforeAll(async () => {
  // Each is kept as soon as it is up, so that afterAll ends it even when another failed to start.
  const started = await Promise.allSettled([
    privateRedis().then((s) => (redis = s)),
    privatePostgres('guest').then((s) => (postgres = s)),
    privateSearchEngine().then((s) => (search = s)),
  ]);
  for (const s of started) if (s.status === 'rejected') throw s.reason;
  t = await startTestApp({
    apps: [writeApi, readApi],
    config: {
      ...relaxedLimits,
      RATE_LIMIT_ADDRESS_PER_MIN: 100_000,
      DATABASE_URL: postgres!.url,
      REDIS_URL: redis!.url,
      ...search!.config,
    },
  });
  await loadCatalog(t, 'catalog.ndjson');
  const email = uniqueEmail('owner');
  const res = await http(t.url, 'POST', '/v1/auth/register', {
    body: { first_name: 'Kari', last_name: 'Nordmann', email, password: PASSWORD, accept_terms: true },
  });
  expect(res.status, res.text).toBe(201);
  token = res.body.access_token;
  const sql = sqlPool(postgres!.url);
  await sql.query('update accounts set email_confirmed_at = now() where email = $1', [email]);
  await sql.end();
  // The first answers of a fresh engine and database are slow (cold caches); they are not what
  // this suite measures.
  for (let i = 0; i < 5; i++) await untilAllOk(['categories', 'search', 'me', 'filters', 'register']);
  answers.length = 0;
  registrations.length = 0;
}, 240_000);

afterAll(async () => {
  try {
    await t?.close();
  } finally {
    await Promise.all([redis?.close(), postgres?.close(), search?.close()]);
  }
  if (report.length) console.info(`[dependency-restarts] outage timings\n  ${report.join('\n  ')}`);
}, 120_000);

describe('a dependency stops and starts again under light load', () => {
  it('Redis', { timeout: 90_000 }, async () => {
    await outage('Redis', redis!, 'cache', 'register');
  });

  it('Postgres', { timeout: 90_000 }, async () => {
    await outage('Postgres', postgres!, 'database', 'filters');
  });

  it('the search engine', { timeout: 120_000 }, async () => {
    await outage(
      'OpenSearch',
      { stop: () => search!.stopNode(), start: () => search!.startNode() },
      'search',
      'search',
    );
  });

  it('no answer was a 500 or slower than 1 s; each 503 was `unavailable` with Retry-After', () => {
    expect(answers.length).toBeGreaterThan(100);
    for (const a of answers) {
      const where = `${a.phase}, ${a.label}: ${a.res.status} in ${Math.round(a.ms)} ms ${a.res.text.slice(0, 200)}`;
      expect(a.res.headers.get('x-request-id'), where).toBeTruthy();
      expect([200, 201, 503], where).toContain(a.res.status);
      expect(a.ms, where).toBeLessThan(SLOWEST_MS);
      if (a.res.status === 503) {
        expect(a.res.body?.error?.code, where).toBe('unavailable');
        expect(Number(a.res.headers.get('retry-after')), where).toBeGreaterThanOrEqual(1);
      }
    }
  });

  it('nothing written was lost or half-written', async () => {
    const sql = sqlPool(postgres!.url);
    try {
      const accepted = registrations.filter((r) => r.status === 201).map((r) => r.email);
      const refused = registrations.filter((r) => r.status === 503).map((r) => r.email);
      expect(accepted.length).toBeGreaterThan(5);
      expect(refused.length).toBeGreaterThan(0);
      const { rows } = await sql.query<{ email: string; sessions: string }>(
        `select a.email, (select count(*) from sessions s where s.account_id = a.id) as sessions
           from accounts a where a.email = any($1::text[])`,
        [[...accepted, ...refused]],
      );
      const found = new Map(rows.map((r) => [r.email, Number(r.sessions)]));
      for (const email of accepted) expect(found.get(email), `${email} was accepted`).toBeGreaterThanOrEqual(1);
      for (const email of refused) expect(found.has(email), `${email} was refused`).toBe(false);
    } finally {
      await sql.end();
    }
    const saved = await http(t.url, 'GET', '/v1/me/search-filters', { token });
    expect(saved.status).toBe(200);
    expect(saved.body.stay?.query).toBe(lastFilters);
  });
});
