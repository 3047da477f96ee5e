import { randomBytes } from 'node:crypto';
import { loadConfig } from '@guest/config';
import { argValue, baseUrl, measure, printTable, type Measured } from './lib.ts';

/**
 * Sign-in benchmark against a running service (BASE_URL, default http://127.0.0.1:8080):
 * login and refresh throughput, login for a known email with a wrong password against an
 * unknown email (their p50 should match: no enumeration by timing), and the p99 of an
 * authenticated read at 50 connections (GET /v1/me when it exists, else GET /v1/auth/sessions).
 *
 * It registers its own accounts, all from one address, so start the server with the
 * per-address and anti-robot thresholds raised, e.g.:
 *   RATE_LIMIT_ADDRESS_PER_MIN=1000000 RATE_LIMIT_ACTOR_PER_MIN=1000000 RATE_LIMIT_LOGIN_PER_MIN=1000000 \
 *   CAPTCHA_AFTER_REGISTRATIONS_PER_ADDRESS=1000000 CAPTCHA_AFTER_FAILED_LOGINS_PER_ADDRESS=1000000 \
 *   CAPTCHA_AFTER_FAILED_LOGINS_PER_EMAIL=1000000 PORT=8080 npx tsx apps/server/src/main.ts
 * Usage: npx tsx bench/auth.ts [--accounts 50] [--duration 10]
 */
const base = baseUrl();
const accountsN = Number(argValue('accounts', '50'));
const durationS = Number(argValue('duration', '10'));
const PASSWORD = 'benchmark passphrase 2026';
const json = { 'content-type': 'application/json' };

async function post(path: string, body: unknown, token?: string) {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { ...json, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
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
  if (r.status !== 201) {
    console.error(`registration ${i} answered ${r.status}: ${JSON.stringify(r.body)}`);
    console.error('Start the server with the raised limits shown at the top of bench/auth.ts.');
    process.exit(1);
  }
  users.push({ email, access: r.body.access_token, refresh: r.body.refresh_token });
}

const probe = await fetch(`${base}/v1/me`, { headers: { authorization: `Bearer ${users[0]!.access}` } });
const readPath = probe.status === 200 ? '/v1/me' : '/v1/auth/sessions';

const postJson = (path: string, body: unknown) => ({ method: 'POST', path, headers: json, body: JSON.stringify(body) });
const rows: Measured[] = [];
rows.push(
  await measure({
    name: 'POST /v1/auth/login (right password)',
    url: base,
    connections: 8,
    durationS,
    requests: users.map((u) => postJson('/v1/auth/login', { email: u.email, password: PASSWORD })),
  }),
);
rows.push(
  await measure({
    name: 'POST /v1/auth/login (known email, wrong password) [401]',
    url: base,
    connections: 8,
    durationS,
    requests: users.map((u) => postJson('/v1/auth/login', { email: u.email, password: 'wrong passphrase 2026' })),
  }),
);
rows.push(
  await measure({
    name: 'POST /v1/auth/login (unknown email) [401]',
    url: base,
    connections: 8,
    durationS,
    requests: users.map((_, i) =>
      postJson('/v1/auth/login', { email: `nobody-${run}-${i}@bench.example`, password: PASSWORD }),
    ),
  }),
);
rows.push(
  await measure({
    name: 'POST /v1/auth/refresh',
    url: base,
    connections: 50,
    durationS,
    requests: users.map((u) => postJson('/v1/auth/refresh', { refresh_token: u.refresh })),
  }),
);
rows.push(
  await measure({
    name: `GET ${readPath} (authenticated)`,
    url: base,
    connections: 50,
    durationS,
    requests: users.map((u) => ({ method: 'GET', path: readPath, headers: { authorization: `Bearer ${u.access}` } })),
  }),
);

const cfg = loadConfig();
console.log(`BASE_URL ${base}; ${accountsN} accounts; ${durationS} s per row`);
console.log(
  `argon2id parameters of this environment's config (the server's, if started from the same env): ` +
    `m=${cfg.ARGON2_MEMORY_KIB} KiB, t=${cfg.ARGON2_ITERATIONS}, p=${cfg.ARGON2_PARALLELISM}`,
);
printTable(rows as unknown as Array<Record<string, unknown>>);
// 401 rows are expected to be non-2xx; any other row with failures is a broken run.
const broken = rows.filter((r) => r.errors > 0 || (!r.name.includes('[401]') && r.non2xx > 0));
if (broken.length) {
  console.error(`rows with errors or unexpected non-2xx answers: ${broken.map((r) => r.name).join(', ')}`);
  process.exitCode = 1;
}
