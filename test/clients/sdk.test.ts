import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectSocket, createGuestClient, items, type GuestClient } from '@guest/client';
import { readApi } from '@guest/read-api';
import { startGateway, type Gateway } from '@guest/realtime';
import { socketAuthenticator } from '@guest/realtime/socket-auth';
import { writeApi } from '@guest/write-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { confirmEmail, relaxedLimits, uniqueEmail } from '../write-api/auth/support.ts';
import { loadCatalog } from '../read-api/search/support.ts';

/**
 * A client program written against the generated SDK (issue 10, 9), as a client team would: it
 * type-checks with the repository and runs against a test app with no hand fixes. Register and
 * login, a filtered feed paged with the cursor helper (booleans as booleans), the upcoming
 * events, the map proxy (a path with slashes), and the socket's hello.
 */
let t: TestApp;
let gw: Gateway;
let provider: Server;
const providerSaw: string[] = [];
let api: GuestClient;

beforeAll(async () => {
  // The map provider is the outside world: a stand-in that answers every resource it is asked for.
  provider = createServer((req, res) => {
    providerSaw.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"version":8}');
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  const { port } = provider.address() as { port: number };
  t = await startTestApp({
    apps: [writeApi, readApi],
    config: { ...relaxedLimits, MAP_UPSTREAM_URL: `http://127.0.0.1:${port}/` },
  });
  await loadCatalog(t, 'catalog.ndjson');
  gw = await startGateway({
    config: t.config,
    authenticate: socketAuthenticator(t.runtime),
    port: 0,
    host: '127.0.0.1',
  });
  api = createGuestClient({ baseUrl: t.url });
});
afterAll(async () => {
  await gw?.close();
  await t?.close();
  await new Promise((resolve) => provider?.close(resolve));
});

it('runs a client program: sign-in, a filtered feed, upcoming events, the map proxy and the socket', async () => {
  const email = uniqueEmail('sdk');
  const password = 'harbour-lights-2026';
  const registered = await api.POST('/v1/auth/register', {
    body: { first_name: 'Sam', last_name: 'Park', email, password, accept_terms: true },
    headers: { 'Idempotency-Key': crypto.randomUUID() },
  });
  expect(registered.error).toBeUndefined();
  expect(registered.response.status).toBe(201);
  await confirmEmail(t, email);

  const login = await api.POST('/v1/auth/login', { body: { email, password } });
  expect(login.error).toBeUndefined();
  const tokens = login.data!;
  expect(tokens.token_type).toBe('Bearer');
  api.setAccessToken(tokens.access_token);

  const me = await api.GET('/v1/me');
  expect(me.data?.email).toBe(email);

  // The same access token serves the read API: a signed-in feed carries `is_favorite`.
  const pub = api;
  // Filters typed by the document: `children_allowed` is a boolean, `kind` an enum.
  const query = { kind: 'stay', children_allowed: true, smoking_allowed: false, limit: 2 } as const;
  const first = await pub.GET('/v1/search/listings', { params: { query } });
  expect(first.response.status).toBe(200);
  expect(Array.isArray(first.data!.items)).toBe(true);
  for (const card of first.data!.items) expect(typeof card.is_favorite).toBe('boolean');
  const cards = [];
  for await (const card of items((cursor) =>
    pub.GET('/v1/search/listings', { params: { query: { ...query, cursor } } }),
  ))
    cards.push(card);
  // Every page followed: more cards than one page holds, each once.
  expect(first.data!.has_more).toBe(true);
  expect(cards.length).toBeGreaterThan(first.data!.items.length);
  expect(new Set(cards.map((c) => c.id)).size).toBe(cards.length);

  const upcoming = await pub.GET('/v1/events/upcoming', { params: { query: { with_total: true, limit: 5 } } });
  expect(upcoming.response.status).toBe(200);
  expect(typeof upcoming.data!.total).toBe('number');

  // The map proxy: a resource path with slashes reaches the provider as segments, not `%2F`.
  const font = await pub.GET('/v1/map/{path}', {
    params: { path: { path: 'fonts/Open Sans/0-255.pbf' } },
    parseAs: 'text',
  });
  expect(font.response.status).toBe(200);
  expect(providerSaw).toContain('/fonts/Open%20Sans/0-255.pbf');
  const outside = await pub.GET('/v1/map/{path}', { params: { path: { path: '../secret.json' } } });
  expect(outside.response.status).toBe(404);
  expect(outside.error?.error.code).toBe('not_found');

  // The socket: opened with the same access token, greeted with {type, data, ts}; ping is answered with pong.
  const socket = await connectSocket({
    baseUrl: `http://127.0.0.1:${gw.port}`,
    accessToken: tokens.access_token,
  });
  const hello = await socket.next<{ account_id: string }>('hello');
  expect(hello.data.account_id).toBe(me.data!.id);
  expect(Number.isNaN(Date.parse(hello.ts))).toBe(false);
  socket.send('ping');
  expect((await socket.next('pong')).type).toBe('pong');
  socket.close();
  await socket.closed;
});
