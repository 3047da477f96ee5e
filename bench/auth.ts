import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { loadConfig } from '@guest/config';
import { argValue, baseUrl, measure, printTable, type Measured } from './lib.ts';

/**
 * Sign-in benchmark against a running service (BASE_URL, default http://127.0.0.1:8080):
 * login and refresh throughput, login for a known email with a wrong password against an
 * unknown email (their p50 should match: no enumeration by timing), and the p99 of an
 * authenticated read at 50 connections (GET /v1/me when it exists, else GET /v1/auth/sessions).
 *
 * Every row states the one status its requests must get (200, or 401 for the wrong-password
 * rows). Any other answer (429 from a rate limit, 403 captcha_required from the anti-robot rules)
 * means the timings measure something else: the run stops with the statuses it saw and exits 1.
 *
 * It registers its own accounts, all from one address, so start the server with the
 * per-address and anti-robot thresholds raised, e.g.:
 *   RATE_LIMIT_ADDRESS_PER_MIN=1000000 RATE_LIMIT_ACTOR_PER_MIN=1000000 RATE_LIMIT_LOGIN_PER_MIN=1000000 \
 *   CAPTCHA_AFTER_REGISTRATIONS_PER_ADDRESS=1000000 CAPTCHA_AFTER_FAILED_LOGINS_PER_ADDRESS=1000000 \
 *   CAPTCHA_AFTER_FAILED_LOGINS_PER_EMAIL=1000000 LOGIN_BACKOFF_FREE_FAILURES=100 \
 *   PORT=8080 npx tsx apps/server/src/main.ts
 * (the wrong-password row fails each account's login several times: with the default back-off
 * after 3 failures its answers turn into 429).
 * Usage: npm run bench:auth -- [--accounts 50] [--duration 10] [--only login,refresh,read]
 * (`--only` runs some rows: `read` is the authenticated read alone, for profiling).
 *
 * The argon2id parameters printed are read from a hash the server stored for one of the bench's
 * accounts when this process reaches the server's database (DATABASE_URL of this environment);
 * otherwise they are this environment's config, labelled so, and only match the server when it
 * was started with the same environment.
 */
const base = baseUrl();
const accountsN = Number(argValue('accounts', '50'));
const durationS = Number(argValue('duration', '10'));
const only = argValue('only', '')
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const KINDS = ['login', 'refresh', 'read'] as const;
for (const k of only) if (!KINDS.includes(k as never)) fail(`--only takes ${KINDS.join(', ')}; not ${k}`, '');
const PASSWORD = 'benchmark passphrase 2026';
const json = { 'content-type': 'application/json' };
const RAISE_LIMITS = 'Start the server with the raised limits shown at the top of bench/auth.ts.';

function fail(message: string, hint = RAISE_LIMITS): never {
  console.error(`bench:auth FAILED: ${message}`);
  console.error(hint);
  process.exit(1);
}

async function post(path: string, body: unknown, token?: string) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { ...json, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  }).catch((err: unknown) =>
    fail(
      `no service answers at ${base} (${String((err as Error).cause ?? err)})`,
      'Start the server first, with the raised limits shown at the top of bench/auth.ts.',
    ),
  );
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
}

const run = randomBytes(4).toString('hex');
const users: Array<{ email: string; access: string; refresh: string }> = [];
for (let i = 0; i < accountsN; i++) {
  const email = `bench-${run}-${i}@bench.example`;
  const r = await post('/v1/auth/register', {
    first_name: 'Bench',
    last_name: String(i),
    email,
    password: PASSWORD,
    accept_terms: true,
  });
  if (r.status !== 201) fail(`registration ${i} answered ${r.status}: ${JSON.stringify(r.body)}`);
  users.push({ email, access: r.body.access_token, refresh: r.body.refresh_token });
}

const probe = await fetch(`${base}/v1/me`, { headers: { authorization: `Bearer ${users[0]!.access}` } });
const readPath = probe.status === 200 ? '/v1/me' : '/v1/auth/sessions';

interface Shape {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}
interface Row {
  name: string;
  kind: (typeof KINDS)[number];
  /** The only status every answer of this row may have. */
  expect: number;
  connections: number;
  requests: Shape[];
}

const postJson = (path: string, body: unknown): Shape => ({
  method: 'POST',
  path,
  headers: json,
  body: JSON.stringify(body),
});

const allRows: Row[] = [
  {
    name: 'POST /v1/auth/login (right password)',
    kind: 'login',
    expect: 200,
    connections: 8,
    requests: users.map((u) => postJson('/v1/auth/login', { email: u.email, password: PASSWORD })),
  },
  {
    name: 'POST /v1/auth/login (known email, wrong password)',
    kind: 'login',
    expect: 401,
    connections: 8,
    requests: users.map((u) => postJson('/v1/auth/login', { email: u.email, password: 'wrong passphrase 2026' })),
  },
  {
    name: 'POST /v1/auth/login (unknown email)',
    kind: 'login',
    expect: 401,
    connections: 8,
    requests: users.map((_, i) =>
      postJson('/v1/auth/login', { email: `nobody-${run}-${i}@bench.example`, password: PASSWORD }),
    ),
  },
  {
    name: 'POST /v1/auth/refresh',
    kind: 'refresh',
    expect: 200,
    connections: 50,
    requests: users.map((u) => postJson('/v1/auth/refresh', { refresh_token: u.refresh })),
  },
  {
    name: `GET ${readPath} (authenticated)`,
    kind: 'read',
    expect: 200,
    connections: 50,
    requests: users.map((u) => ({ method: 'GET', path: readPath, headers: { authorization: `Bearer ${u.access}` } })),
  },
];

const plan = only.length ? allRows.filter((r) => only.includes(r.kind)) : allRows;

const describeStatuses = (counts: Map<number, number>) =>
  [...counts.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${status}×${n}`)
    .join(', ');

type Result = Measured & { status: string };
const rows: Result[] = [];
for (const row of plan) {
  // One request first, so a misconfigured server is named before a whole timed run is spent on it.
  const first = row.requests[0]!;
  const check = await fetch(`${base}${first.path}`, { method: first.method, headers: first.headers, body: first.body });
  if (check.status !== row.expect) {
    fail(`${row.name}: expected HTTP ${row.expect}, got ${check.status} ${(await check.text()).slice(0, 300)}`);
  }
  await check.arrayBuffer().catch(() => undefined);

  const seen = new Map<number, number>();
  const count = (status: number) => seen.set(status, (seen.get(status) ?? 0) + 1);
  const measured = await measure({
    name: row.name,
    url: base,
    connections: row.connections,
    durationS,
    requests: row.requests.map((r) => ({ ...r, onResponse: count })),
  });
  const unexpected = [...seen.entries()].filter(([status]) => status !== row.expect);
  if (measured.errors > 0 || unexpected.length || !seen.size) {
    if (rows.length) printTable(rows as unknown as Array<Record<string, unknown>>);
    fail(
      `${row.name}: expected every answer to be ${row.expect}; got ${describeStatuses(seen) || 'no answers'}` +
        (measured.errors ? ` and ${measured.errors} connection errors or timeouts` : '') +
        '. Its timings would not measure what the row says, so none are reported.',
    );
  }
  rows.push({ ...measured, status: String(row.expect) });
}

/**
 * The argon2id parameters the server really used, read back from the hash it stored for the
 * bench's first account (PHC string `$argon2id$v=19$m=…,p=…,t=…$…`); or why they could not be.
 */
async function serverArgon2(): Promise<{ params: string } | { why: string }> {
  const client = new pg.Client({ connectionString: loadConfig().DATABASE_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
  } catch (err) {
    return { why: `the server's database is not reachable at this environment's DATABASE_URL (${String(err)})` };
  }
  try {
    const { rows: found } = await client.query<{ password_hash: string | null }>(
      'select password_hash from accounts where email = $1',
      [users[0]!.email],
    );
    const hash = found[0]?.password_hash;
    if (!hash) return { why: "this environment's DATABASE_URL is not the server's database (no bench account there)" };
    const head = /^\$argon2id\$v=\d+\$([^$]+)\$/.exec(hash)?.[1];
    const p = Object.fromEntries((head ?? '').split(',').map((kv) => kv.split('=') as [string, string]));
    if (!p.m || !p.t || !p.p) return { why: `the stored hash is not argon2id (${hash.slice(0, 12)}…)` };
    return { params: `m=${p.m} KiB, t=${p.t}, p=${p.p}` };
  } finally {
    await client.end().catch(() => undefined);
  }
}

console.log(`BASE_URL ${base}; ${accountsN} accounts; ${durationS} s per row`);
const argon2 = await serverArgon2();
if ('params' in argon2) {
  console.log(
    `argon2id parameters the server used (read from the hash it stored for ${users[0]!.email}): ${argon2.params}`,
  );
} else {
  const cfg = loadConfig();
  console.log(
    `argon2id parameters: the server's could not be read: ${argon2.why}. This benchmark's OWN config says ` +
      `m=${cfg.ARGON2_MEMORY_KIB} KiB, t=${cfg.ARGON2_ITERATIONS}, p=${cfg.ARGON2_PARALLELISM}; they are the ` +
      "server's only if it was started with the same environment.",
  );
}
printTable(rows as unknown as Array<Record<string, unknown>>);
