import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pino from 'pino';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { repoRoot } from '@guest/config';
import { importCatalogText, reindexAll } from '@guest/indexer';
import type { Runtime } from '@guest/runtime';
import { runAll } from '@guest/server/run-all';
import { createIsolatedEnv, type IsolatedEnv } from '../support/isolated-env.ts';
import { http } from '../support/http.ts';
import { FIXTURES } from '../read-api/search/support.ts';
import { PASSWORD, uniqueEmail } from '../write-api/auth/support.ts';
import { launchChromium } from './web/browser.ts';

/*
 * The SDK as a project outside this repository gets it: `npm pack` in clients/ts (its `prepack`
 * builds it), the tarball installed with plain `npm i` into a new project under the system's
 * temporary directory (no workspace, no TypeScript loader), then
 *
 * - a strict TypeScript user (`tsc --strict --noEmit`, declarations checked too: no skipLibCheck),
 *   using the browser's WebSocket type and the `ws` package's;
 * - a plain `.mjs` user and a `.cjs` one, run by Node.js 20 (the machine's `node`, no global
 *   WebSocket: it passes `ws`) and by Node.js 24 (the project's runtime, its own WebSocket),
 *   against the real one-base-URL server: sign-in, a paged feed, the socket with a ticket
 *   function, iterated with `for await`, a renewal, and the socket with an access token;
 * - a page in Chromium that imports the installed ES modules as they are (an import map, no
 *   bundler, no loader) from another origin, signs in and reads the socket with the browser's
 *   own WebSocket.
 */
const run = promisify(execFile);
const NODE_20 = '/usr/bin/node';
const NODE_24 = process.execPath;

let env: IsolatedEnv;
let app: FastifyInstance;
let runtime: Runtime;
let base: string;
let project: string;
let account: { email: string; id: string };
let feedSize = 0;
// The outside project's files over HTTP, for the browser: another origin than the API's.
let files: Server;
let filesOrigin: string;
let browser: Browser;
const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript' };

/** npm (the machine's, a script on PATH) run by the project's Node.js. */
const npm = (args: string[], cwd: string) =>
  run('npm', args, {
    cwd,
    env: { ...process.env, PATH: `${path.dirname(NODE_24)}${path.delimiter}${process.env.PATH}` },
    maxBuffer: 16 * 1024 * 1024,
  });

beforeAll(async () => {
  project = await mkdtemp(path.join(tmpdir(), 'guest-sdk-user-'));
  const { stdout } = await npm(['pack', '--json', '--pack-destination', project], path.join(repoRoot, 'clients/ts'));
  const tarball = path.join(project, (JSON.parse(stdout) as Array<{ filename: string }>)[0]!.filename);
  await writeFile(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'sdk-user', private: true, type: 'module' }),
  );
  // From npm's cache when it has them (the workspace installed the same versions), else the registry.
  const typescript = (await import('typescript/package.json', { with: { type: 'json' } })).default.version;
  const ws = (await import('ws/package.json', { with: { type: 'json' } })).default.version;
  await npm(
    [
      'i',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      tarball,
      `typescript@${typescript}`,
      `ws@${ws}`,
      '@types/ws@^8',
    ],
    project,
  );

  files = createServer((req, res) => {
    const file = path.join(project, path.normalize(decodeURIComponent(req.url!.split('?')[0]!)));
    readFile(file).then(
      (body) =>
        res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' }).end(body),
      () => res.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  filesOrigin = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  browser = await launchChromium();

  env = await createIsolatedEnv({ config: { RATE_LIMIT_LOGIN_PER_MIN: 1000, CORS_ORIGINS: filesOrigin } });
  ({ app, runtime } = await runAll({ ...env.config, PORT: 0, REALTIME_PORT: 0, LOG_LEVEL: 'silent' }));
  const address = app.server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  // The search fixture catalog, imported and indexed as production does, so the feed has pages.
  await importCatalogText(runtime.database, await readFile(path.join(FIXTURES, 'catalog.ndjson'), 'utf8'));
  await reindexAll(runtime, pino({ level: 'silent' }), { absorbOutbox: true, oldIndexGraceMs: 0 });
  const email = uniqueEmail('sdk-package');
  const registered = await http(base, 'POST', '/v1/auth/register', {
    body: { first_name: 'Pat', last_name: 'Outside', email, password: PASSWORD, accept_terms: true },
  });
  expect(registered.status).toBe(201);
  // The socket needs a confirmed email; the mail itself is another test's subject.
  const { rows } = await env.sql.query('update accounts set email_confirmed_at = now() where email = $1 returning id', [
    email,
  ]);
  account = { email, id: rows[0].id };
  feedSize = (await http(base, 'GET', '/v1/search/count')).body.count;
  expect(feedSize).toBeGreaterThan(5);
}, 300_000);
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => files?.close(resolve));
  await app?.close();
  await runtime?.close();
  await env?.close();
  if (project) await rm(project, { recursive: true, force: true });
});

const TS_USER = `import { connectSocket, createGuestClient, items, wsTicket, type GuestSocket, type SocketMessage, type WebSocketConstructor, type paths } from '@guest/client';
import WebSocket from 'ws';

type Card = paths['/v1/search/listings']['get']['responses'][200]['content']['application/json']['items'][number];

export async function use(baseUrl: string, email: string, password: string): Promise<string[]> {
  const api = createGuestClient({ baseUrl });
  const login = await api.POST('/v1/auth/login', { body: { email, password } });
  if (!login.data) throw new Error(login.error?.error.code);
  api.setAccessToken(login.data.access_token);
  const titles: string[] = [];
  for await (const card of items((cursor) => api.GET('/v1/search/listings', { params: { query: { cursor, pets_allowed: true } } }))) {
    const c: Card = card;
    titles.push(c.title);
  }
  // Node.js 20 and older: the ws package; browsers and Node.js 22+: their own (both fit).
  const fromWs: WebSocketConstructor = WebSocket;
  const fromBrowser: WebSocketConstructor = globalThis.WebSocket;
  const socket: GuestSocket = await connectSocket({ baseUrl, ticket: () => wsTicket(api), WebSocket: fromWs ?? fromBrowser });
  for await (const m of socket) {
    const message: SocketMessage = m;
    titles.push(message.type);
    break;
  }
  const expiresAt: string = await socket.renew();
  socket.close();
  const code: number = await socket.closed;
  return [...titles, expiresAt, String(code)];
}
`;

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    noEmit: true,
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    lib: ['es2022', 'dom'],
    types: [],
    skipLibCheck: false,
  },
  files: ['user.ts'],
};

const MJS_USER = `import { connectSocket, createGuestClient, items, SEARCH_FILTERS, wsTicket } from '@guest/client';

const [baseUrl, email, password] = process.argv.slice(2);
const out = { node: process.version, globalWebSocket: typeof globalThis.WebSocket === 'function' };
// Where the runtime has no WebSocket (Node.js 20), the ws package's is passed in.
const WebSocket = out.globalWebSocket ? undefined : (await import('ws')).default;

const api = createGuestClient({ baseUrl });
const login = await api.POST('/v1/auth/login', { body: { email, password } });
api.setAccessToken(login.data.access_token);
out.me = (await api.GET('/v1/me')).data.email;
out.filters = Object.keys(SEARCH_FILTERS).includes('pets_allowed');
out.cards = 0;
out.cardIds = [];
for await (const card of items((cursor) => api.GET('/v1/search/listings', { params: { query: { cursor, limit: 5 } } })))
  out.cardIds.push(card.id);

// The web's way: a ticket, fetched again for each renewal; messages read with for await.
const socket = await connectSocket({ baseUrl, ticket: () => wsTicket(api), WebSocket });
out.messages = [];
for await (const m of socket) {
  out.messages.push(m.type);
  if (m.type === 'hello') {
    out.account = m.data.account_id;
    socket.send('ping');
  }
  if (m.type === 'pong') break;
}
out.renewedUntil = await socket.renew();
socket.close(1000, 'done');
out.closeCode = await socket.closed;
out.renewAfterClose = await socket.renew().then(
  () => 'renewed',
  (e) => e.message,
);
// An iterator started after the close ends at once.
for await (const m of socket) out.messages.push('after close: ' + m.type);

// The apps' way: the access token.
const bySocketToken = await connectSocket({ baseUrl, accessToken: login.data.access_token, WebSocket });
out.tokenHello = (await bySocketToken.next('hello')).data.account_id;
bySocketToken.close();
await bySocketToken.closed;
console.log(JSON.stringify(out));
`;

const CJS_USER = `const sdk = require('@guest/client');
console.log(JSON.stringify(Object.keys(sdk).sort()));
`;

it('type-checks a strict TypeScript user against the packed declarations', async () => {
  await writeFile(path.join(project, 'user.ts'), TS_USER);
  await writeFile(path.join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  const tsc = path.join(project, 'node_modules', 'typescript', 'bin', 'tsc');
  const result = await run(NODE_24, [tsc, '-p', 'tsconfig.json', '--strict', '--noEmit'], { cwd: project }).catch(
    (e: { stdout: string; stderr: string }) => e,
  );
  expect(result.stdout + result.stderr).toBe('');
});

for (const [name, node] of [
  ['Node.js 20', NODE_20],
  ['Node.js 24', NODE_24],
] as const) {
  it(`runs a plain .mjs and .cjs user on ${name} against the live server`, async () => {
    if (!existsSync(node)) throw new Error(`${node} is missing`);
    await writeFile(path.join(project, 'user.mjs'), MJS_USER);
    await writeFile(path.join(project, 'user.cjs'), CJS_USER);
    const { stdout } = await run(node, ['user.mjs', base, account.email, PASSWORD], { cwd: project });
    const out = JSON.parse(stdout) as Record<string, unknown>;
    expect(out.node).toMatch(name === 'Node.js 20' ? /^v20\./ : /^v24\./);
    expect(out.globalWebSocket).toBe(name !== 'Node.js 20');
    expect(out).toMatchObject({
      me: account.email,
      filters: true,
      account: account.id,
      messages: ['hello', 'pong'],
      closeCode: 1000,
      renewAfterClose: 'the socket is closed',
      tokenHello: account.id,
    });
    expect(Number.isNaN(Date.parse(String(out.renewedUntil)))).toBe(false);
    // Every page followed (five cards a page), each card once: the whole fixture feed.
    const ids = out.cardIds as string[];
    expect(ids.length).toBe(feedSize);
    expect(new Set(ids).size).toBe(ids.length);

    const cjs = await run(node, ['user.cjs'], { cwd: project });
    expect(JSON.parse(cjs.stdout)).toEqual(
      expect.arrayContaining(['connectSocket', 'createGuestClient', 'items', 'pages', 'wsTicket', 'SEARCH_FILTERS']),
    );
  });
}

const PAGE = `<!doctype html>
<link rel="icon" href="data:,">
<script type="importmap">
{ "imports": {
  "@guest/client": "/node_modules/@guest/client/dist/esm/index.js",
  "openapi-fetch": "/node_modules/openapi-fetch/dist/index.mjs"
} }
</script>
<script type="module">
import { connectSocket, createGuestClient, wsTicket } from '@guest/client';
const [baseUrl, email, password] = JSON.parse(decodeURIComponent(location.hash.slice(1)));
try {
  const api = createGuestClient({ baseUrl });
  const login = await api.POST('/v1/auth/login', { body: { email, password } });
  api.setAccessToken(login.data.access_token);
  const socket = await connectSocket({ baseUrl, ticket: () => wsTicket(api) });
  let hello;
  for await (const m of socket) { hello = m; break; }
  socket.close();
  window.result = { me: (await api.GET('/v1/me')).data.email, hello: hello.type, account: hello.data.account_id, closed: await socket.closed };
} catch (e) {
  window.result = { error: String(e) };
}
</script>
`;

it('runs in a browser as installed: ES modules through an import map, the browser WebSocket', async () => {
  await writeFile(path.join(project, 'index.html'), PAGE);
  const page = await browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.goto(`${filesOrigin}/index.html#${encodeURIComponent(JSON.stringify([base, account.email, PASSWORD]))}`);
  await page.waitForFunction('window.result', undefined, { timeout: 20_000 });
  expect(await page.evaluate('window.result')).toEqual({
    me: account.email,
    hello: 'hello',
    account: account.id,
    closed: 1005,
  });
  expect(errors).toEqual([]);
  await page.close();
});
