import nodeHttp from 'node:http';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Runtime } from '@guest/runtime';
import { asyncApiDocument } from '@guest/realtime';
import { runAll } from '@guest/server/run-all';
import { createIsolatedEnv, type IsolatedEnv } from '../support/isolated-env.ts';
import { http } from '../support/http.ts';
import { uniqueEmail, PASSWORD } from '../write-api/auth/support.ts';
import { envelopeOf, refusal, tokenExpiringIn } from './support.ts';

/*
 * The one-base-URL server (apps/server, the way clients reach the API): the socket refuses with
 * the same envelopes through its proxy, and the protocol is published as AsyncAPI 3 there and by
 * the gateway itself.
 */
let env: IsolatedEnv;
let app: FastifyInstance;
let runtime: Runtime;
let base: string;

beforeAll(async () => {
  env = await createIsolatedEnv({ config: { RATE_LIMIT_LOGIN_PER_MIN: 1000 } });
  ({ app, runtime } = await runAll({ ...env.config, PORT: 0, REALTIME_PORT: 0, LOG_LEVEL: 'silent' }));
  const address = app.server.address();
  base = `127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(async () => {
  await app?.close();
  await runtime?.close();
  await env?.close();
});

async function signedUp(confirmed: boolean) {
  const email = uniqueEmail('socket');
  const res = await http(`http://${base}`, 'POST', '/v1/auth/register', {
    body: { first_name: 'Ana', last_name: 'Lee', email, password: PASSWORD, accept_terms: true },
  });
  expect(res.status).toBe(201);
  if (confirmed) await env.sql.query('update accounts set email_confirmed_at = now() where email = $1', [email]);
  return res.body as { access_token: string; session_id: string };
}

describe('/v1/ws through the one-base-URL server', () => {
  it('refuses with the same envelopes as the gateway: 403 email_not_confirmed, 401 expired, 404 elsewhere', async () => {
    const unconfirmed = await signedUp(false);
    expect(envelopeOf(await refusal(`ws://${base}/v1/ws?access_token=${unconfirmed.access_token}`))).toMatchObject({
      status: 403,
      code: 'email_not_confirmed',
    });
    const confirmed = await signedUp(true);
    const { rows } = await env.sql.query('select account_id from sessions where id = $1', [confirmed.session_id]);
    const { token } = await tokenExpiringIn(
      env.config,
      { accountId: rows[0].account_id, sessionId: confirmed.session_id },
      -5,
      new Date(),
    );
    expect(envelopeOf(await refusal(`ws://${base}/v1/ws?access_token=${token}`))).toEqual({
      status: 401,
      code: 'unauthorized',
      details: { reason: 'expired' },
    });
    expect(envelopeOf(await refusal(`ws://${base}/v1/ws`))).toMatchObject({
      status: 401,
      details: { reason: 'missing' },
    });
    expect(envelopeOf(await refusal(`ws://${base}/v1/wss?access_token=${confirmed.access_token}`))).toMatchObject({
      status: 404,
      code: 'not_found',
    });
  });
});

describe('an Upgrade the API does not take is ignored (issue 34; RFC 9110 section 7.8)', () => {
  /** A GET as Java's HttpClient sends it over http://: it offers to switch to h2c. */
  const getOfferingH2c = (path: string) =>
    new Promise<{ status: number; body: string; requestId: string | undefined }>((resolve, reject) => {
      const [host, port] = base.split(':');
      nodeHttp
        .get(
          {
            host,
            port: Number(port),
            path,
            headers: { Connection: 'Upgrade, HTTP2-Settings', Upgrade: 'h2c', 'HTTP2-Settings': 'AAEAAEAAAAIAAAAA' },
          },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (d: string) => (body += d));
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                body,
                requestId: res.headers['x-request-id'] as string | undefined,
              }),
            );
          },
        )
        .on('error', reject);
    });

  it('a request offering h2c gets its normal answer, wherever it goes, /v1/ws included', async () => {
    const config = await getOfferingH2c('/v1/config');
    expect(config.status).toBe(200);
    expect(JSON.parse(config.body)).toHaveProperty('default_language');
    expect(config.requestId).toBeTruthy();
    const missing = await getOfferingH2c('/v1/no-such-route');
    expect(missing.status).toBe(404);
    expect(JSON.parse(missing.body).error.code).toBe('not_found');
    // Not a WebSocket handshake: the socket's path answers it as HTTP too, never upgrades it.
    expect((await getOfferingH2c('/v1/ws')).status).not.toBe(101);
  });
});

/** Every `$ref` of the document points at something in it. */
function unresolvedRefs(doc: any): string[] {
  const missing: string[] = [];
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') {
        const target = v
          .slice(2)
          .split('/')
          .reduce<any>((at, part) => at?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
        if (target === undefined) missing.push(v);
      } else walk(v);
    }
  };
  walk(doc);
  return missing;
}

const SERVER_TYPES = [
  'hello',
  'pong',
  'auth.expiring',
  'auth.renewed',
  'error',
  'session.closed',
  'badges.updated',
  'account.restricted',
];
const CLIENT_TYPES = ['ping', 'auth.renew'];

describe('GET /v1/asyncapi.json: the socket protocol as AsyncAPI 3', () => {
  it('is served at the one base URL (the gateway serves the same document, socket.test.ts)', async () => {
    const res = await http(`http://${base}`, 'GET', '/v1/asyncapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(res.body).toEqual(asyncApiDocument(runtime.config));
  });

  it('declares every message type with its payload, a channel message and an operation; refs resolve', async () => {
    const doc = (await http(`http://${base}`, 'GET', '/v1/asyncapi.json')).body;
    expect(doc.asyncapi).toBe('3.0.0');
    expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    expect(doc.servers.api).toMatchObject({ protocol: 'ws', host: expect.any(String) });
    expect(doc.channels.socket.address).toBe('/v1/ws');
    expect(unresolvedRefs(doc)).toEqual([]);
    const ops = Object.values(doc.operations) as any[];
    for (const type of [...SERVER_TYPES, ...CLIENT_TYPES]) {
      const message = doc.components.messages[type];
      expect(message, type).toBeDefined();
      expect(message.payload.properties.type.const).toBe(type);
      // A client may leave out `ts` (and `data` of a ping); the server always sends all three.
      const required = SERVER_TYPES.includes(type) ? ['type', 'data', 'ts'] : ['type'];
      expect(message.payload.required).toEqual(expect.arrayContaining(required));
      expect(doc.channels.socket.messages[type]).toEqual({ $ref: `#/components/messages/${type}` });
      const op = ops.find((o) => o.messages.some((m: any) => m.$ref === `#/channels/socket/messages/${type}`));
      expect(op?.action, type).toBe(SERVER_TYPES.includes(type) ? 'send' : 'receive');
    }
    expect(Object.keys(doc.components.messages).sort()).toEqual([...SERVER_TYPES, ...CLIENT_TYPES].sort());
    // The renewal message is the one the gateway parses: a token or a ticket, nothing else.
    expect(doc.components.messages['auth.renew'].payload.properties.data.anyOf).toHaveLength(2);
    expect(ops.find((o) => o.messages[0].$ref.endsWith('/ping')).reply.messages).toEqual([
      { $ref: '#/channels/socket/messages/pong' },
    ]);
  });

  it('documents the close codes, the refusals and the query parameters that sign in', async () => {
    const doc = (await http(`http://${base}`, 'GET', '/v1/asyncapi.json')).body;
    const codes = doc.channels.socket['x-close-codes'].map((c: any) => [c.code, c.reason]);
    expect(codes).toEqual(
      expect.arrayContaining([
        [4401, 'expired'],
        [4001, 'session_closed'],
      ]),
    );
    for (const text of ['4401', '`expired`', 'email_not_confirmed', 'auth.renew', 'ping']) {
      expect(doc.info.description).toContain(text);
    }
    expect(Object.keys(doc.channels.socket.bindings.ws.query.properties)).toEqual(['access_token', 'ticket']);
    expect(doc.components.securitySchemes.accessToken).toMatchObject({ type: 'httpApiKey', in: 'query' });
  });

  it('is linked from the OpenAPI description, so /docs tells clients where the socket is described', async () => {
    const openapi = (await http(`http://${base}`, 'GET', '/v1/openapi.json')).body;
    expect(openapi.info.description).toContain('[/v1/asyncapi.json](/v1/asyncapi.json)');
    expect(Object.keys(openapi.paths)).not.toContain('/v1/asyncapi.json');
  });
});
