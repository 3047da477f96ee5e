import { z } from 'zod';
import { RESTRICTION_KINDS } from '@guest/auth';

/**
 * The socket protocol of `/v1/ws` (DESIGN G6a), one zod schema per message. The gateway parses
 * what clients send with the client schemas, and the AsyncAPI document (`asyncapi.ts`) is
 * generated from all of them: the shapes are written once, so the document cannot drift from
 * what the gateway accepts.
 *
 * Every frame is a JSON text `{type, data, ts}`. Clients must ignore message types they do not
 * know: new ones are added without a version change.
 */

/** Changes whenever a message, payload or close code changes (the AsyncAPI document's version). */
export const SOCKET_PROTOCOL_VERSION = '2026.11.27';

// Times are written by the server only (a client's `ts` is not read), so they are documented as
// `date-time` without zod's long ISO pattern, which would only add noise to the document.
const dateTime = (description: string) => z.string().meta({ format: 'date-time', description });
const ts = dateTime('When the message was made (UTC, ISO 8601).');
const clientTs = dateTime('Optional; the server does not read it.').optional();
const expiresAt = dateTime('When the socket closes with 4401 `expired` unless it is renewed (`auth.renew`).');

function message<T extends string, D extends z.ZodType>(type: T, data: D, t: z.ZodType = ts) {
  return z.object({ type: z.literal(type), data, ts: t }).strict();
}

// ---- client → server ----

export const PingMessage = message('ping', z.object({}).strict().optional(), clientTs).meta({
  title: 'ping',
  description: 'Keep-alive from the client; answered by `pong`. `data` may be omitted.',
});

export const AuthRenewMessage = message(
  'auth.renew',
  z.union([
    z
      .object({ access_token: z.string().min(1).meta({ description: 'A fresh access token of the same account.' }) })
      .strict(),
    z
      .object({ ticket: z.string().min(1).meta({ description: 'A fresh socket ticket (`POST /v1/auth/ws-ticket`).' }) })
      .strict(),
  ]),
  clientTs,
).meta({
  title: 'auth.renew',
  description:
    'Extends the socket past the expiry of what opened it: send a fresh access token (apps, after ' +
    '`POST /v1/auth/refresh`) or a fresh socket ticket (web). Answered by `auth.renewed`, or by ' +
    '`error` (the socket then keeps its current expiry).',
});

/** What a client may send; the gateway parses every frame with it. */
export const CLIENT_MESSAGES = { ping: PingMessage, 'auth.renew': AuthRenewMessage } as const;
export type ClientMessageType = keyof typeof CLIENT_MESSAGES;

// ---- server → client ----

export const HelloMessage = message(
  'hello',
  z.object({
    account_id: z.uuid(),
    session_id: z.uuid(),
    expires_at: expiresAt,
  }),
).meta({ title: 'hello', description: 'First message on every socket, once it is subscribed to the account.' });

export const PongMessage = message('pong', z.object({}).strict()).meta({
  title: 'pong',
  description: 'Answer to `ping`.',
});

export const AuthExpiringMessage = message(
  'auth.expiring',
  z.object({
    expires_at: expiresAt,
    expires_in: z.number().int().min(0).meta({ description: 'Seconds left.' }),
  }),
).meta({
  title: 'auth.expiring',
  description:
    'Sent `WS_EXPIRY_WARNING_S` seconds (default 60) before the socket expires, or at once when less is ' +
    'left: renew with `auth.renew` or the socket closes with 4401 `expired`.',
});

export const AuthRenewedMessage = message('auth.renewed', z.object({ expires_at: expiresAt })).meta({
  title: 'auth.renewed',
  description: 'The renewal was accepted: the socket now lives until `expires_at`.',
});

export const ErrorMessage = message(
  'error',
  z.object({
    code: z
      .enum([
        'validation_error',
        'schema_invalid',
        'unauthorized',
        'forbidden',
        'email_not_confirmed',
        'account_restricted',
        'internal_error',
      ])
      .meta({
        description: 'Same codes as the HTTP error envelope.',
      }),
    message: z.string().meta({ description: 'For humans; may change.' }),
    details: z.record(z.string(), z.unknown()).meta({
      description:
        '`reason` (`malformed_json`, `unknown_type`, `missing`, `invalid`, `expired`, `session_closed`, ' +
        '`ticket_invalid`, `other_account`), `fields` (paths that failed the schema), `in_reply_to` (the type answered).',
    }),
  }),
).meta({
  title: 'error',
  description: 'A client message was refused. The socket stays open.',
});

export const SessionClosedMessage = message('session.closed', z.object({ session_id: z.uuid() })).meta({
  title: 'session.closed',
  description:
    'A session of the account ended (logout, logout-all, password reset, deletion). Every socket of ' +
    'the account hears it; the sockets of that session are then closed with 4001 `session_closed`.',
});

export const BadgesUpdatedMessage = message(
  'badges.updated',
  z.object({
    notifications: z.number().int().min(0),
    messages: z.number().int().min(0),
    assistant: z.number().int().min(0),
  }),
).meta({
  title: 'badges.updated',
  description: 'The unread counters changed; same body as `GET /v1/me/badges`.',
});

export const AccountRestrictedMessage = message(
  'account.restricted',
  z.object({
    kind: z.enum(RESTRICTION_KINDS).meta({
      description:
        'What the account may no longer do: `login` (every session is closed too: `session.closed` follows), ' +
        '`booking`, `messaging`, `reviews`. The matching HTTP calls answer 403 `account_restricted`.',
    }),
    reason: z.string().nullable().meta({ description: 'Why, for humans; null when none was given.' }),
    until: dateTime('When the restriction ends; null when it has no end.').nullable(),
  }),
).meta({
  title: 'account.restricted',
  description:
    'The account was restricted. Every socket of the account hears it; a `login` restriction then closes every ' +
    'session (`session.closed`, close code 4001).',
});

/** What the gateway sends. */
export const SERVER_MESSAGES = {
  hello: HelloMessage,
  pong: PongMessage,
  'auth.expiring': AuthExpiringMessage,
  'auth.renewed': AuthRenewedMessage,
  error: ErrorMessage,
  'session.closed': SessionClosedMessage,
  'badges.updated': BadgesUpdatedMessage,
  'account.restricted': AccountRestrictedMessage,
} as const;
export type ServerMessageType = keyof typeof SERVER_MESSAGES;
export type ServerData<T extends ServerMessageType> = z.infer<(typeof SERVER_MESSAGES)[T]>['data'];

/** Close codes the gateway uses, with the reason text it sends. */
export const CLOSE_CODES = {
  expired: {
    code: 4401,
    reason: 'expired',
    description: 'The token (or ticket lifetime) lapsed without `auth.renew`.',
  },
  sessionClosed: {
    code: 4001,
    reason: 'session_closed',
    description: 'The session of this socket was closed (logout, password reset, deletion): sign in again.',
  },
  goingAway: { code: 1001, reason: 'going away', description: 'The server is shutting down: reconnect.' },
  tooBig: { code: 1009, reason: '', description: 'A frame over 16 KiB.' },
  internal: { code: 1011, reason: 'internal error', description: 'The server failed to set the socket up: reconnect.' },
} as const;

export type ClientMessage = z.infer<(typeof CLIENT_MESSAGES)[ClientMessageType]>;

export type ParsedClientMessage =
  | { ok: true; message: ClientMessage }
  | { ok: false; code: 'validation_error' | 'schema_invalid'; message: string; details: Record<string, unknown> };

/** Parses one client frame with the schema of its type. */
export function parseClientMessage(text: string): ParsedClientMessage {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return {
      ok: false,
      code: 'validation_error',
      message: 'A frame must be a JSON object.',
      details: { reason: 'malformed_json' },
    };
  }
  const type = raw && typeof raw === 'object' ? (raw as { type?: unknown }).type : undefined;
  if (typeof type !== 'string' || !Object.hasOwn(CLIENT_MESSAGES, type)) {
    return {
      ok: false,
      code: 'validation_error',
      message: `Unknown message type; send one of: ${Object.keys(CLIENT_MESSAGES).join(', ')}.`,
      details: { reason: 'unknown_type', allowed: Object.keys(CLIENT_MESSAGES) },
    };
  }
  const parsed = CLIENT_MESSAGES[type as ClientMessageType].safeParse(raw);
  if (!parsed.success) {
    return {
      ok: false,
      code: 'schema_invalid',
      message: `The ${type} message does not match its schema.`,
      details: {
        fields: [...new Set(parsed.error.issues.map((i) => i.path.join('.') || '(message)'))],
        in_reply_to: type,
      },
    };
  }
  return { ok: true, message: parsed.data };
}
