import nodeHttp from 'node:http';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCatalogText, reindexAll } from '@guest/indexer';
import { readApi } from '@guest/read-api';
import { writeApi } from '@guest/write-api';
import { seedDemoTransactions } from '@guest/write-api/demo';
import type { FastifyInstance } from 'fastify';
import type { AppPlugin, OperationExample } from '@guest/http-kit';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { http, type HttpResult } from '../support/http.ts';
import { login, waitForMail } from '../write-api/auth/support.ts';
import { pngImage } from '../write-api/profile/images.ts';
import { DocumentSchemas } from '../fuzz/openapi-fuzzer.ts';

/**
 * Every operation of the OpenAPI document carries one example request and its answer, and the
 * example is what a client gets. Each example request is sent, in the order a client's life would
 * send them (each after what its route's example names in `after`, deleting the account last), to the write and read
 * APIs on a loaded catalog; the live answer must have the documented success status, validate
 * against the documented schema, and have the example's shape: the same keys with the same JSON
 * types, down the tree (values differ where they are ids, tokens and times). The example must be
 * valid against the schema too.
 *
 * A few request values exist only at run time (a token mailed to the account, the id of a session,
 * a file or a transaction the run made): `live()` puts them in place of the example's value for
 * the same key, never adding a key the example lacks.
 *
 * `EXAMPLES_RECORD=<file>` writes the live answers to the file instead of comparing: the start of
 * an example for a new operation.
 */
const RECORD = process.env.EXAMPLES_RECORD;
const FIXTURES = path.join(import.meta.dirname, '..', 'fixtures');

const limits = {
  RATE_LIMIT_LOGIN_PER_MIN: 1000,
  RATE_LIMIT_PASSWORD_RESET_PER_HOUR: 1000,
  RATE_LIMIT_RESEND_CONFIRMATION_PER_HOUR: 1000,
  RATE_LIMIT_PASSWORD_CHANGE_PER_HOUR: 1000,
  CAPTCHA_AFTER_REGISTRATIONS_PER_ADDRESS: 1000,
  CAPTCHA_AFTER_FAILED_LOGINS_PER_ADDRESS: 1000,
  CAPTCHA_AFTER_RESET_REQUESTS_PER_ADDRESS: 1000,
  CAPTCHA_AFTER_DELETE_REQUESTS_PER_ACCOUNT: 1000,
};

/**
 * The examples as the routes declare them (`config.example`), by `operationId`: what the document
 * does not show, the order (`after`, `last`), is read from the routes themselves as they are added.
 */
const declared = new Map<string, OperationExample>();
const routeExamples: AppPlugin = {
  name: 'route-examples',
  // Skips encapsulation: the hook sees the routes of the apps registered after it.
  plugin: Object.assign(
    async (app: FastifyInstance) => {
      app.addHook('onRoute', (route) => {
        const id = (route.schema as { operationId?: string } | undefined)?.operationId;
        if (id && route.config?.example) declared.set(id, route.config.example);
      });
    },
    { [Symbol.for('skip-override')]: true },
  ),
};

/** The operations signed-in calls need: the account exists and its email is confirmed. */
const ACCOUNT_READY = 'confirmEmail';

/**
 * The order a client's life sends the operations in, each after what it uses: the document's
 * order, except that an example comes after those its route names in `after`, a signed-in one
 * after the account is ready, and those marked `last` (they end the account) after all others.
 */
function clientOrder(ops: Map<string, { op: any }>): string[] {
  const needs = new Map<string, Set<string>>();
  const isLast = (id: string) => declared.get(id)?.last === true;
  for (const [id, { op }] of ops) {
    const before = new Set(declared.get(id)?.after ?? []);
    const signedIn = (op.security ?? []).some((s: Record<string, unknown>) => 'bearer' in s);
    if (signedIn && id !== ACCOUNT_READY) before.add(ACCOUNT_READY);
    if (isLast(id)) for (const other of ops.keys()) if (!isLast(other)) before.add(other);
    needs.set(id, before);
  }
  const order: string[] = [];
  const pending = [...ops.keys()];
  while (pending.length) {
    const next = pending.find((id) => [...needs.get(id)!].every((n) => order.includes(n) || !ops.has(n)));
    if (!next) throw new Error(`the examples' order has a cycle among: ${pending.join(', ')}`);
    order.push(next);
    pending.splice(pending.indexOf(next), 1);
  }
  return order;
}

interface Example {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: unknown;
  hasBody: boolean;
  contentType: string | undefined;
  status: number;
  schema: any;
  response: unknown;
  /** The media type of a success answer that is a file, not JSON (no example body to show). */
  file: string | undefined;
  security: boolean;
}

let t: TestApp;
let upstream: nodeHttp.Server;
let doc: any;
let schemas: DocumentSchemas;

/** The map provider, played by a local server that answers a style document. */
async function startMapUpstream(): Promise<string> {
  upstream = nodeHttp.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=60', etag: '"v1"' });
    res.end(
      JSON.stringify({
        version: 8,
        name: 'Streets',
        sources: { openmaptiles: { type: 'vector', url: 'https://tiles.example.com/v3.json' } },
        glyphs: 'https://tiles.example.com/fonts/{fontstack}/{range}.pbf',
        layers: [{ id: 'background', type: 'background', paint: { 'background-color': '#f8f4f0' } }],
      }),
    );
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;
}

beforeAll(async () => {
  const mapUpstream = await startMapUpstream();
  t = await startTestApp({
    apps: [routeExamples, writeApi, readApi],
    config: { ...limits, MAP_UPSTREAM_URL: mapUpstream },
  });
  for (const file of ['search/catalog.ndjson', 'events/catalog.ndjson']) {
    await importCatalogText(t.runtime.database, await readFile(path.join(FIXTURES, file), 'utf8'));
  }
  await reindexAll(t.runtime, pino({ level: 'silent' }), { absorbOutbox: true, oldIndexGraceMs: 0 });
  doc = (await http(t.url, 'GET', '/v1/openapi.json')).body;
  schemas = new DocumentSchemas(doc);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await new Promise((r) => upstream?.close(r));
});

function operations(): Map<string, { path: string; method: string; op: any }> {
  const out = new Map<string, { path: string; method: string; op: any }>();
  for (const [p, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) out.set(op.operationId, { path: p, method, op });
  }
  return out;
}

/** The example of an operation, as the document states it. */
function exampleOf(op: any): Example {
  const params: Record<string, string> = {};
  const query: Record<string, unknown> = {};
  for (const p of op.parameters ?? []) {
    if (p.$ref || p.example === undefined) continue;
    if (p.in === 'path') params[p.name] = p.example;
    if (p.in === 'query') query[p.name] = p.example;
  }
  const [contentType, media] = Object.entries<any>(op.requestBody?.content ?? {})[0] ?? [];
  const status = Number(Object.keys(op.responses).filter((s) => Number(s) >= 200 && Number(s) < 300)[0]);
  const content = op.responses[String(status)]?.content ?? {};
  const ok = content['application/json'];
  return {
    file: ok ? undefined : Object.keys(content)[0],
    params,
    query,
    body: media?.example,
    hasBody: Boolean(op.requestBody),
    contentType,
    status,
    schema: ok?.schema,
    response: ok?.example,
    security: (op.security ?? []).some((s: Record<string, unknown>) => 'bearer' in s),
  };
}

// ---- the account the examples are sent as, and what the run made on the way ------------------

const account = {
  email: '',
  password: '',
  token: '',
  refreshToken: '',
  accountId: '',
  avatarUrl: '',
  mediaId: '',
  ticket: '',
};

async function signInAgain(): Promise<void> {
  const res = await login(t, account.email, account.password);
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  account.token = res.body.access_token;
  account.refreshToken = res.body.refresh_token;
}

interface LiveValues {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
}

/** What is only known at run time, by the example's key it replaces. */
async function live(id: string): Promise<LiveValues> {
  switch (id) {
    case 'confirmEmail':
      return { body: { token: (await waitForMail(t, account.email, /confirm your email/i)).token } };
    case 'refreshTokens':
      return { body: { refresh_token: account.refreshToken } };
    case 'getAvatar':
      return { params: { file: account.avatarUrl.split('/').pop()! } };
    case 'createMediaTicket':
      return { params: { media_id: account.mediaId } };
    case 'getMedia':
      return { params: { media_id: account.mediaId }, query: { t: account.ticket } };
    case 'addFavorite':
    case 'removeFavorite': {
      const { rows } = await t.sql.query(`select id::text as id from listings order by id limit 1`);
      return { params: { listing_id: rows[0].id } };
    }
    case 'listTransactions':
      await seedDemoTransactions(t.runtime.database.db, account.accountId, t.runtime.clock.now());
      return {};
    case 'getTransaction': {
      const { rows } = await t.sql.query(
        `select id from transactions where account_id = $1 and kind = 'booking_payment' and state = 'paid'
         order by amount_minor desc limit 1`,
        [account.accountId],
      );
      return { params: { tx_id: rows[0].id } };
    }
    case 'markDialogRead': {
      const { rows } = await t.sql.query('insert into dialogs default values returning id::text as id');
      await t.sql.query('insert into dialog_participants (dialog_id, account_id) values ($1, $2)', [
        rows[0].id,
        account.accountId,
      ]);
      return { params: { id: rows[0].id } };
    }
    case 'closeSession': {
      const other = await login(t, account.email, account.password);
      return { params: { session_id: other.body.session_id } };
    }
    case 'confirmPasswordReset':
      return { body: { token: (await waitForMail(t, account.email, /reset your password/i)).token } };
    case 'confirmAccountDeletion':
      return { body: { token: (await waitForMail(t, account.email, /deletion/i)).token } };
    default:
      return {};
  }
}

/** What the answer leaves for the operations after it. */
async function after(id: string, ex: Example, res: HttpResult): Promise<void> {
  const body = ex.body as Record<string, any> | undefined;
  switch (id) {
    case 'register': {
      account.email = body!.email;
      account.password = body!.password;
      account.token = res.body.access_token;
      account.refreshToken = res.body.refresh_token;
      const { rows } = await t.sql.query('select id from accounts where email = $1', [account.email.toLowerCase()]);
      account.accountId = rows[0].id;
      return;
    }
    case 'login':
    case 'refreshTokens':
      account.token = res.body.access_token;
      account.refreshToken = res.body.refresh_token;
      return;
    case 'uploadAvatar':
      account.avatarUrl = res.body.avatar_url;
      // The file's name starts with its media id (32 hex digits of a uuid).
      account.mediaId = /\/([0-9a-f]{8})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{12})[0-9a-f]*\.jpg$/
        .exec(account.avatarUrl)!
        .slice(1)
        .join('-');
      return;
    case 'createMediaTicket':
      account.ticket = res.body.ticket;
      return;
    case 'changePassword':
      account.password = body!.new_password;
      await signInAgain();
      return;
    case 'confirmPasswordReset':
      account.password = body!.password;
      await signInAgain();
      return;
    case 'logout':
    case 'logoutAll':
      await signInAgain();
      return;
  }
}

/** Sends an operation's example request, with the run-time values in place. */
async function send(p: string, method: string, ex: Example, values: LiveValues, id: string) {
  for (const part of ['params', 'query'] as const) {
    for (const k of Object.keys(values[part] ?? {}))
      expect(ex[part], `${id}: example has ${part} ${k}`).toHaveProperty(k);
  }
  const params = { ...ex.params, ...values.params };
  const url = p.replace(/\{([^}]+)\}/g, (_, name: string) =>
    name === 'path' ? params[name]! : encodeURIComponent(params[name]!),
  );
  const query = new URLSearchParams();
  for (const [k, v] of Object.entries({ ...ex.query, ...values.query })) query.set(k, String(v));
  const target = `${url}${query.size ? `?${query}` : ''}`;
  const token = ex.security ? account.token : undefined;
  if (ex.contentType === 'multipart/form-data') {
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(await pngImage())], { type: 'image/png' }), 'avatar.png');
    const res = await fetch(`${t.url}${target}`, {
      method: method.toUpperCase(),
      headers: token ? { authorization: `Bearer ${token}` } : {},
      body: form,
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, body: text ? JSON.parse(text) : undefined };
  }
  let body = ex.body;
  if (values.body) {
    for (const k of Object.keys(values.body)) expect(ex.body, `${id}: example body has ${k}`).toHaveProperty(k);
    body = { ...(ex.body as object), ...values.body };
  }
  return http(t.url, method.toUpperCase(), target, {
    ...(body === undefined ? {} : { body }),
    ...(token ? { token } : {}),
  });
}

// ---- shape -----------------------------------------------------------------------------------

const jsonType = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

function resolve(schema: any): any {
  let s = schema ?? {};
  while (s.$ref) s = schemas.resolve(s.$ref);
  return s;
}

/** The branch of a union that describes a value of this JSON type. */
function branch(schema: any, value: unknown): any {
  const s = resolve(schema);
  const options = s.anyOf ?? s.oneOf;
  if (options) {
    const type = jsonType(value);
    const fit = options.map(resolve).find((o: any) => o.type === type || (type === 'object' && o.properties));
    return fit ?? resolve(options.find((o: any) => resolve(o).type !== 'null'));
  }
  if (s.allOf) {
    const parts = s.allOf.map(resolve);
    return {
      type: 'object',
      properties: Object.assign({}, ...parts.map((x: any) => x.properties ?? {})),
    };
  }
  return s;
}

/** Where the live answer's shape differs from the example's: keys, JSON types, list items. */
function shapeDiff(schema: any, example: unknown, actual: unknown, at: string, out: string[]): void {
  const [te, ta] = [jsonType(example), jsonType(actual)];
  if (te !== ta) {
    out.push(`${at}: example has ${te}, the answer ${ta}`);
    return;
  }
  const s = branch(schema, actual);
  if (te === 'array') {
    const [e, a] = [example as unknown[], actual as unknown[]];
    if (e.length === 0 || a.length === 0) {
      if (e.length !== a.length) out.push(`${at}: example has ${e.length} items, the answer ${a.length}`);
      return;
    }
    shapeDiff(s.items ?? s.prefixItems?.[0], e[0], a[0], `${at}[0]`, out);
  } else if (te === 'object') {
    const [e, a] = [example as Record<string, unknown>, actual as Record<string, unknown>];
    // A map (code → value): its keys are data; its values must have the example's shape.
    if (!s.properties && s.additionalProperties !== undefined) {
      const [ev, av] = [Object.values(e)[0], Object.values(a)[0]];
      if ((ev === undefined) !== (av === undefined)) out.push(`${at}: example map is ${ev ? 'not ' : ''}empty`);
      else if (ev !== undefined) shapeDiff(s.additionalProperties, ev, av, `${at}.*`, out);
      return;
    }
    for (const k of Object.keys(e)) if (!(k in a)) out.push(`${at}.${k}: in the example, not in the answer`);
    for (const k of Object.keys(a)) if (!(k in e)) out.push(`${at}.${k}: in the answer, not in the example`);
    for (const k of Object.keys(e)) if (k in a) shapeDiff(s.properties?.[k], e[k], a[k], `${at}.${k}`, out);
  }
}

// ---- the test --------------------------------------------------------------------------------

describe('OpenAPI examples', () => {
  it('places every operation of the document in the run, after the operations its example names', () => {
    const ops = operations();
    const order = clientOrder(ops);
    expect([...order].sort()).toEqual([...ops.keys()].sort());
    const unknown = [...declared].flatMap(([id, ex]) =>
      (ex.after ?? []).filter((a) => !ops.has(a)).map((a) => `${id}: ${a}`),
    );
    expect(unknown).toEqual([]);
    for (const [id, ex] of declared) {
      for (const a of ex.after ?? []) expect(order.indexOf(a), `${a} before ${id}`).toBeLessThan(order.indexOf(id));
    }
  });

  it('gives every operation a request example where it takes input, and a success example', () => {
    const missing: string[] = [];
    for (const [id, { op }] of operations()) {
      const ex = exampleOf(op);
      if (ex.hasBody && ex.body === undefined) missing.push(`${id}: request body`);
      for (const p of op.parameters ?? []) {
        if (!p.$ref && p.required && p.example === undefined) missing.push(`${id}: parameter ${p.name}`);
      }
      if (ex.schema && ex.response === undefined) missing.push(`${id}: response`);
      if (ex.response !== undefined) {
        const v = schemas.validator(ex.schema);
        if (!v(ex.response)) missing.push(`${id}: example response invalid: ${schemas.describe(v)}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('answers every example request as its example shows, valid against the documented schema', async () => {
    const ops = operations();
    const failures: string[] = [];
    const recorded: Record<string, unknown> = {};
    for (const id of clientOrder(ops)) {
      const { path: p, method, op } = ops.get(id)!;
      const ex = exampleOf(op);
      const values = await live(id);
      const res = await send(p, method, ex, values, id);
      recorded[id] = { status: res.status, body: res.body };
      if (res.status !== ex.status) {
        failures.push(`${id}: HTTP ${res.status}, documented ${ex.status}: ${res.text.slice(0, 300)}`);
        continue;
      }
      await after(id, ex, res);
      if (ex.file) {
        // A file: of the documented media type (a range such as `*/*` matches any), not empty.
        const type = res.headers.get('content-type') ?? '';
        const [want, got] = [ex.file.split('/'), type.split(';')[0]!.trim().split('/')];
        const fits = want.every((part, i) => part === '*' || part === got[i]);
        if (!fits || !(Number(res.headers.get('content-length')) > 0))
          failures.push(`${id}: a file of type ${ex.file} documented, answered ${type}`);
        continue;
      }
      if (!ex.schema) continue;
      const valid = schemas.validator(ex.schema);
      if (!valid(res.body)) failures.push(`${id}: answer not valid against its schema: ${schemas.describe(valid)}`);
      const diff: string[] = [];
      shapeDiff(ex.schema, ex.response, res.body, id, diff);
      failures.push(...diff);
    }
    if (RECORD) {
      await writeFile(RECORD, `${JSON.stringify(recorded, null, 2)}\n`);
      console.log(`recorded the live answers in ${RECORD}`);
      return;
    }
    expect(failures).toEqual([]);
  }, 180_000);
});
