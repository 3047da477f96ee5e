import { z } from 'zod';
import type { Config } from '@guest/config';
import { CLIENT_MESSAGES, CLOSE_CODES, SERVER_MESSAGES, SOCKET_PROTOCOL_VERSION } from './protocol.ts';

export const ASYNCAPI_PATH = '/v1/asyncapi.json';

/** AsyncAPI schemas are JSON Schema draft-07 (plus extensions): the target zod writes for them. */
function jsonSchema(schema: z.ZodType): Record<string, unknown> {
  const out = z.toJSONSchema(schema, { target: 'draft-7', io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  delete out.$schema;
  return out;
}

const operationId = (prefix: string, type: string) =>
  prefix + type.replace(/(^|[._])([a-z])/g, (_m, _sep: string, c: string) => c.toUpperCase());

/**
 * The socket protocol of `/v1/ws` as an AsyncAPI 3.0 document, generated from the zod schemas
 * the gateway itself uses (`protocol.ts`). It describes the gateway: `send` operations are what
 * the server sends to clients, `receive` operations what it accepts from them.
 *
 * `servers` uses `PUBLIC_BASE_URL` (or the configured `HOST:PORT`), never a request's Host header
 * (DESIGN section 6).
 */
export function asyncApiDocument(
  config: Pick<Config, 'PUBLIC_BASE_URL' | 'HOST' | 'PORT' | 'ACCESS_TOKEN_TTL_S' | 'WS_EXPIRY_WARNING_S'>,
): Record<string, unknown> {
  const base = new URL(
    config.PUBLIC_BASE_URL ?? `http://${config.HOST === '0.0.0.0' ? '127.0.0.1' : config.HOST}:${config.PORT}`,
  );
  const closeCodes = Object.values(CLOSE_CODES).map(({ code, reason, description }) => ({ code, reason, description }));
  const messages: Record<string, unknown> = {};
  const channelMessages: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};
  const add = (type: string, schema: z.ZodType, action: 'send' | 'receive') => {
    const meta = (z.globalRegistry.get(schema) ?? {}) as { title?: string; description?: string };
    messages[type] = {
      name: type,
      title: meta.title ?? type,
      summary: meta.description,
      contentType: 'application/json',
      payload: jsonSchema(schema),
    };
    channelMessages[type] = { $ref: `#/components/messages/${type}` };
    operations[operationId(action === 'send' ? 'on' : 'send', type)] = {
      action,
      title: action === 'send' ? `Server sends ${type}` : `Client sends ${type}`,
      channel: { $ref: '#/channels/socket' },
      messages: [{ $ref: `#/channels/socket/messages/${type}` }],
      ...(type === 'ping'
        ? { reply: { channel: { $ref: '#/channels/socket' }, messages: [{ $ref: '#/channels/socket/messages/pong' }] } }
        : {}),
      ...(type === 'auth.renew'
        ? {
            reply: {
              channel: { $ref: '#/channels/socket' },
              messages: [
                { $ref: '#/channels/socket/messages/auth.renewed' },
                { $ref: '#/channels/socket/messages/error' },
              ],
            },
          }
        : {}),
    };
  };
  for (const [type, schema] of Object.entries(SERVER_MESSAGES)) add(type, schema, 'send');
  for (const [type, schema] of Object.entries(CLIENT_MESSAGES)) add(type, schema, 'receive');

  const closeTable = closeCodes
    .map((c) => `| ${c.code} | ${c.reason ? `\`${c.reason}\`` : '(none)'} | ${c.description} |`)
    .join('\n');
  return {
    asyncapi: '3.0.0',
    id: 'urn:guest-api:socket',
    info: {
      title: 'Guest API socket (/v1/ws)',
      version: SOCKET_PROTOCOL_VERSION,
      description: [
        "The realtime socket of the guest API: the signed-in account's unread counters (`badges.updated`), its sessions " +
          "ending (`session.closed`) and restrictions (`account.restricted`), and the socket's own life (`hello`, " +
          '`auth.expiring`, `auth.renewed`, `pong`, `error`). New message types are added without a version change.',
        '',
        '**Opening.** Apps connect to `/v1/ws?access_token=…` with the access token of register/login/refresh; ' +
          'the web connects with `/v1/ws?ticket=…` from `POST /v1/auth/ws-ticket` (one minute, single use). ' +
          'A refused upgrade is an HTTP answer with the error envelope and `X-Request-Id`: 401 `unauthorized` ' +
          '(`details.reason`: `missing`, `invalid`, `expired`, `session_closed`, `ticket_invalid`), ' +
          '403 `email_not_confirmed`, 403 `account_restricted`; any other path is 404 `not_found`.',
        '',
        '**Messages.** Every frame is a JSON text `{type, data, ts}`. The first is `hello`. Clients must ignore types they do not know.',
        '',
        `**Expiry and renewal.** A socket lives until its token expires (\`expires_at\` in \`hello\`); a ticket carries no expiry, so a ` +
          `socket opened or renewed with one lives ${config.ACCESS_TOKEN_TTL_S} seconds (an access token's lifetime) from then. ` +
          `\`auth.expiring\` is sent ${config.WS_EXPIRY_WARNING_S} seconds before; the client sends \`auth.renew\` with a fresh ` +
          'access token (or ticket) and gets `auth.renewed` with the new `expires_at`, or `error` (the socket keeps its expiry). ' +
          'Without renewal the socket is closed with 4401 `expired`.',
        '',
        '**Keep-alive.** Send `{"type":"ping"}` for a `pong` message; the server also sends WebSocket ping frames every 30 seconds ' +
          'and drops a socket that answered nothing (no pong frame, no message) since the previous ping.',
        '',
        '**Close codes.**',
        '',
        '| code | reason | when |',
        '| --- | --- | --- |',
        closeTable,
      ].join('\n'),
    },
    defaultContentType: 'application/json',
    servers: {
      api: {
        host: base.host,
        protocol: base.protocol === 'https:' ? 'wss' : 'ws',
        description: 'The one base URL of the API; the socket is at /v1/ws.',
        security: [
          { $ref: '#/components/securitySchemes/accessToken' },
          { $ref: '#/components/securitySchemes/ticket' },
        ],
      },
    },
    channels: {
      socket: {
        address: '/v1/ws',
        title: 'The account socket',
        description: 'One socket per device, bound to the account (and session) that opened it.',
        messages: channelMessages,
        bindings: {
          ws: {
            method: 'GET',
            query: jsonSchema(
              z.object({
                access_token: z.string().optional().meta({ description: 'Apps: the access token of the guest API.' }),
                ticket: z
                  .string()
                  .optional()
                  .meta({ description: 'Web: a socket ticket from POST /v1/auth/ws-ticket.' }),
              }),
            ),
            bindingVersion: '0.1.0',
          },
        },
        'x-close-codes': closeCodes,
      },
    },
    operations,
    components: {
      messages,
      securitySchemes: {
        accessToken: {
          type: 'httpApiKey',
          in: 'query',
          name: 'access_token',
          description: 'The access token of the guest API (apps).',
        },
        ticket: {
          type: 'httpApiKey',
          in: 'query',
          name: 'ticket',
          description: 'A one-minute, single-use socket ticket (web).',
        },
      },
    },
  };
}
