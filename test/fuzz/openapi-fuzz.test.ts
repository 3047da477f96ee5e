import http from 'node:http';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pino from 'pino';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { importCatalogText, reindexAll } from '@guest/indexer';
import { readApi } from '@guest/read-api';
import { writeApi } from '@guest/write-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { http as request } from '../support/http.ts';
import { confirmEmail, login, register } from '../write-api/auth/support.ts';
import { DocumentSchemas, operationsOf, type Operation, type Plan } from './openapi-fuzzer.ts';
import { countsTable, failureSummary, runFuzz, type FuzzSession } from './run-fuzz.ts';

/**
 * Issue 14 point 8: the OpenAPI-driven fuzzer. It reads the live document of the write API and
 * the read API served together, and sends every operation requests of the documented shape and
 * hostile ones (wrong types, NUL and lone surrogates, huge and hex numbers, empty and repeated
 * parameters, deep nesting, overlong strings, garbage JSON and multipart, wrong content types,
 * junk tokens), signed in as a confirmed fuzz account and not. Every answer must carry
 * X-Request-Id; none may be a 5xx; every 4xx/5xx is the error envelope; a 2xx JSON body is valid
 * against the documented schema (ajv, 2020-12), and no request that breaks the document gets one.
 *
 * FUZZ_REQUESTS (default 5000), FUZZ_SEED (default: a fixed one; printed), FUZZ_ONLY (request numbers,
 * comma-separated, to replay failures), FUZZ_CONCURRENCY (default 4), FUZZ_TRACE (log each request
 * to operations whose key contains it), FUZZ_DEBUG (well-formed requests refused, by operation). `npm run fuzz -- --long`
 * runs 50,000 (scripts/fuzz.ts).
 */
const COUNT = Number(process.env.FUZZ_REQUESTS ?? 5000);
/** CI sends the same 5,000 requests every run (a red run is red again); `npm run fuzz` draws a new seed. */
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : 20_261_123;
const ONLY = process.env.FUZZ_ONLY?.split(',').map(Number);
const CONCURRENCY = Number(process.env.FUZZ_CONCURRENCY ?? 4);
const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures');

/** Every limit a fuzz run from one address and one account would trip, raised. */
const UNLIMITED = 10_000_000;
const limits = {
  RATE_LIMIT_ADDRESS_PER_MIN: UNLIMITED,
  RATE_LIMIT_ACTOR_PER_MIN: UNLIMITED,
  RATE_LIMIT_EMAIL_AVAILABILITY_PER_MIN: UNLIMITED,
  RATE_LIMIT_LOGIN_PER_MIN: UNLIMITED,
  RATE_LIMIT_PASSWORD_RESET_PER_HOUR: UNLIMITED,
  RATE_LIMIT_RESEND_CONFIRMATION_PER_HOUR: UNLIMITED,
  RATE_LIMIT_PASSWORD_CHANGE_PER_HOUR: UNLIMITED,
  RATE_LIMIT_CAPTCHA_PER_MIN: UNLIMITED,
  MAP_RATE_LIMIT_PER_MIN: UNLIMITED,
  CAPTCHA_AFTER_FAILED_LOGINS_PER_EMAIL: UNLIMITED,
  CAPTCHA_AFTER_FAILED_LOGINS_PER_ADDRESS: UNLIMITED,
  CAPTCHA_AFTER_REGISTRATIONS_PER_ADDRESS: UNLIMITED,
  CAPTCHA_AFTER_RESET_REQUESTS_PER_ADDRESS: UNLIMITED,
  CAPTCHA_AFTER_DELETE_REQUESTS_PER_ACCOUNT: UNLIMITED,
};

/** Operations whose success ends the session the request was made with. */
const SESSION_ENDERS = new Set([
  'POST /v1/auth/logout',
  'DELETE /v1/me/sessions/{session_id}',
  'POST /v1/auth/password/change',
  'POST /v1/auth/password-reset/confirm',
  'POST /v1/auth/delete-confirm',
]);

let t: TestApp;
let upstream: http.Server;

/** The map provider, played by a local server: the proxy's 502 is for a provider that fails, not one that is absent. */
async function startMapUpstream(): Promise<string> {
  upstream = http.createServer((req, res) => {
    const p = req.url ?? '/';
    if (p.endsWith('.json')) {
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=60', etag: '"v1"' });
      res.end('{"version":8,"sources":{},"layers":[]}');
    } else {
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'cache-control': 'max-age=60' });
      res.end(Buffer.from([0x1a, 0x00]));
    }
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
}

/** The fuzz account, signed in again whenever a request (sign-out, session deletion) ended its session. */
class Account implements FuzzSession {
  email = '';
  password = '';
  token = '';
  refreshToken = '';
  relogins = 0;
  private pending: Promise<void> | undefined;

  async create(): Promise<void> {
    const reg = await register(t, {});
    await confirmEmail(t, reg.email);
    this.email = reg.email;
    this.password = reg.password;
    this.token = reg.tokens.access_token;
    this.refreshToken = reg.tokens.refresh_token;
  }

  tokens = () => ({ access: this.token });

  ready = async () => {
    await this.pending;
  };

  async maybeEnded(op: Operation, plan: Plan, status: number): Promise<void> {
    if (!plan.auth.startsWith('signed-in')) return;
    if (!(status === 401 || (SESSION_ENDERS.has(op.key) && status < 300))) return;
    this.pending ??= this.renew().finally(() => (this.pending = undefined));
    await this.pending;
  }

  private async renew(): Promise<void> {
    const me = await request(t.url, 'GET', '/v1/me', { token: this.token });
    if (me.status === 200) return;
    this.relogins++;
    const res = await login(t, this.email, this.password);
    if (res.status === 200) {
      this.token = res.body.access_token;
      this.refreshToken = res.body.refresh_token;
      return;
    }
    // The password was changed or the account is going away: a new account.
    await this.create();
  }
}

const account = new Account();

beforeAll(async () => {
  const mapUpstream = await startMapUpstream();
  t = await startTestApp({ apps: [writeApi, readApi], config: { ...limits, MAP_UPSTREAM_URL: mapUpstream } });
  const catalog = [
    await readFile(path.join(FIXTURES, 'search', 'catalog.ndjson'), 'utf8'),
    await readFile(path.join(FIXTURES, 'events', 'catalog.ndjson'), 'utf8'),
  ];
  for (const text of catalog) await importCatalogText(t.runtime.database, text);
  await reindexAll(t.runtime, pino({ level: 'silent' }), { absorbOutbox: true, oldIndexGraceMs: 0 });
  await account.create();
}, 120_000);

afterAll(async () => {
  await t?.close();
  await new Promise((r) => upstream?.close(r));
});

async function knownValues(): Promise<Map<string, string[]>> {
  const q = async (sql: string) => (await t.sql.query<{ v: string }>(sql)).rows.map((r) => r.v);
  const listings = await q('select id::text as v from listings order by id limit 20');
  const slugs = [
    ...(await q('select slug as v from places order by slug limit 10')),
    ...(await q('select slug as v from events order by slug limit 10')),
  ];
  return new Map([
    ['listing_id', listings],
    ['id', listings],
    ['slug', slugs],
    ['parent_id', await q('select id::text as v from places order by id limit 5')],
    ['category', await q(`select code as v from categories where kind = 'event' order by code`)],
    ['category_id', await q('select id::text as v from categories order by id limit 10')],
    ['bbox', ['98.2,7.7,98.5,8.1', '97,5,101,14', '179,-10,-179,10', '-180,-85,180,85']],
    ['near', ['7.88,98.39', '7.8206,98.2986', '52.52,13.405']],
    ['timezone', ['Asia/Bangkok', 'Europe/Berlin', 'UTC']],
    ['currency', ['THB', 'USD', 'EUR']],
    ['lang', ['en', 'ru', 'th', 'zh-Hans']],
    ['q', ['beach', 'villa', 'yoga', 'Kata', 'пляж']],
    ['first_name', ['Anna', 'Ли', 'José']],
    ['last_name', ['Lee', "O'Brien"]],
    ['gender', ['female', 'male', 'other']],
    ['phone', ['+66812345678', '+4915112345678']],
    ['birth_date', ['1990-05-17', '2001-12-31']],
    ['citizenship', ['TH', 'DE', 'RU']],
    ['residence_country', ['TH', 'DE']],
    ['language', ['en', 'ru', 'th']],
    ['captcha_id', ['']],
    ['captcha_answer', ['']],
    ['platform', ['ios', 'android', 'web']],
    ['email', [account.email]],
    ['password', [account.password]],
    ['refresh_token', [account.refreshToken]],
  ]);
}

it(
  `answers ${ONLY ? ONLY.length : COUNT} generated requests over every operation without a 5xx, without a bare error and as documented`,
  async () => {
    const doc = (await request(t.url, 'GET', '/v1/openapi.json')).body;
    const schemas = new DocumentSchemas(doc);
    const ops = operationsOf(doc);
    expect(ops.length).toBeGreaterThan(50);
    const image = await sharp({ create: { width: 16, height: 12, channels: 3, background: '#3a7' } })
      .png()
      .toBuffer();
    console.log(
      `fuzz: seed ${SEED}, ${ONLY ? `requests ${ONLY.join(',')}` : `${COUNT} requests`} over ${ops.length} operations`,
    );
    const report = await runFuzz({
      baseUrl: t.url,
      ops,
      ctx: { schemas, known: await knownValues(), image },
      schemas,
      session: account,
      seed: SEED,
      count: COUNT,
      ...(ONLY ? { only: ONLY } : {}),
      concurrency: CONCURRENCY,
      log: (l) => console.log(l),
      ...(process.env.FUZZ_TRACE ? { trace: process.env.FUZZ_TRACE } : {}),
    });
    console.log(`${countsTable(report)}\n  (fuzz account signed in again ${account.relogins} times)`);
    if (process.env.FUZZ_DEBUG) {
      for (const [op, m] of report.refusedWellFormed) {
        console.log(`well-formed and refused: ${op}: ${[...m].map(([k, n]) => `${k} ×${n}`).join('; ')}`);
      }
    }
    const replay = `FUZZ_SEED=${SEED} FUZZ_ONLY=<#> npx vitest run --project int test/fuzz/openapi-fuzz.test.ts`;
    if (report.failures.length) throw new Error(failureSummary(report, replay));
    if (!ONLY) for (const [op, s] of report.perOperation) expect(s.sent, op).toBeGreaterThan(0);
  },
  Math.max(120_000, COUNT * 60),
);
