import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import type { Config } from '@guest/config';
import { accountChannel, type SocketMessage } from '@guest/realtime-bus';
import { carriesMetricsToken, metricsAccess, securityHeaders } from '@guest/http-kit';
import {
  loadTransport,
  type HttpAnswer,
  type Transport,
  type TransportHandlers,
  type TransportSocket,
} from './transport.ts';
import { ASYNCAPI_PATH, asyncApiDocument } from './asyncapi.ts';
import { CLOSE_CODES, parseClientMessage, type ServerData, type ServerMessageType } from './protocol.ts';

export { publishToAccount, accountChannel, type SocketMessage } from '@guest/realtime-bus';
export { TransportListenError, TransportLoadError } from './transport.ts';
export { asyncApiDocument, ASYNCAPI_PATH } from './asyncapi.ts';

export interface SocketIdentity {
  accountId: string;
  sessionId: string;
  /** When the socket closes (4401 `expired`) unless the client renews it (`auth.renew`). */
  expiresAt: Date;
}

/** Why a socket is not opened (or not renewed): the HTTP status and code of the error envelope. */
export interface SocketRefusal {
  status: 401 | 403;
  code: 'unauthorized' | 'email_not_confirmed' | 'account_restricted';
  message: string;
  details: Record<string, unknown>;
}

/** Finds who opens the socket from its query (`access_token` for apps, `ticket` for the web, G5c). */
export type SocketAuthenticator = (query: URLSearchParams) => Promise<SocketIdentity | SocketRefusal>;

interface UserData extends SocketIdentity {
  connectionId: string;
  closed: boolean;
  /** The expiry `auth.expiring` was last sent for, so it is sent once per expiry. */
  warnedFor: number;
  timers: NodeJS.Timeout[];
}

export interface Gateway {
  port: number;
  /** The socket library in use and its version, e.g. `ws 8.23.0`. */
  transport: string;
  /** Sockets open now, for the `realtime_open_sockets` metric. */
  openSockets(): number;
  close(): Promise<void>;
}

const MAX_PAYLOAD = 16 * 1024;
const SOCKET_PATH = '/v1/ws';
const OPEN_SOCKETS_HELP =
  '# HELP realtime_open_sockets Sockets open on this gateway.\n# TYPE realtime_open_sockets gauge\n';

function envelope(
  status: number,
  code: string,
  message: string,
  requestId: string,
  details: Record<string, unknown> = {},
): HttpAnswer {
  return {
    status,
    headers: { 'content-type': 'application/json', 'x-request-id': requestId },
    body: JSON.stringify({ error: { code, message, details, request_id: requestId } }),
  };
}

/**
 * The realtime gateway: `/v1/ws` on its own port. Each socket is bound to one account; the
 * gateway subscribes to that account's Redis channel while at least one of its sockets is open,
 * so any process can reach the account's devices with `publishToAccount`.
 *
 * It refuses to start (the promise rejects) when its transport did not load and serve a real
 * handshake (`TransportLoadError`), or when it cannot listen on its port (`TransportListenError`).
 */
export async function startGateway(opts: {
  config: Config;
  authenticate: SocketAuthenticator;
  port: number;
  host?: string;
  /** Default: the `ws` transport, loaded and checked once per process. */
  transport?: Promise<Transport>;
}): Promise<Gateway> {
  const { config, authenticate } = opts;
  // First the transport: a gateway that cannot serve sockets must not look started.
  const transport = await (opts.transport ?? loadTransport());
  const subscriber = new Redis(config.REDIS_URL, { lazyConnect: false });
  subscriber.on('error', () => {});
  const sockets = new Map<string, Set<TransportSocket<UserData>>>();
  const subscribed = new Map<string, Promise<unknown>>();
  let openCount = 0;

  subscriber.on('message', (channel: string, raw: string) => {
    const accountId = channel.slice(accountChannel(config.REDIS_KEY_PREFIX, '').length);
    const set = sockets.get(accountId);
    if (!set) return;
    let msg: SocketMessage;
    try {
      msg = JSON.parse(raw) as SocketMessage;
    } catch {
      return;
    }
    // A closed session must lose its socket at once, not at the next token check.
    const closedSession = msg.type === 'session.closed' && (msg.data as { session_id?: string })?.session_id;
    for (const ws of set) {
      ws.send(raw);
      if (closedSession && closedSession === ws.data.sessionId) end(ws, CLOSE_CODES.sessionClosed);
    }
  });

  const send = <T extends ServerMessageType>(ws: TransportSocket<UserData>, type: T, data: ServerData<T>) => {
    if (!ws.data.closed) ws.send(JSON.stringify({ type, data, ts: new Date().toISOString() }));
  };
  const end = (ws: TransportSocket<UserData>, close: { code: number; reason: string }) => {
    if (ws.data.closed) return;
    ws.data.closed = true;
    clearTimers(ws);
    ws.end(close.code, close.reason);
  };
  const clearTimers = (ws: TransportSocket<UserData>) => {
    for (const timer of ws.data.timers) clearTimeout(timer);
    ws.data.timers = [];
  };
  const warningMs = config.WS_EXPIRY_WARNING_S * 1000;
  let asyncApiJson: string | undefined;

  // A socket lives as long as what opened it (or last renewed it): warned `WS_EXPIRY_WARNING_S`
  // before, closed with 4401 `expired` at the instant, so a stolen or outlived token cannot keep
  // a socket listening forever.
  const scheduleExpiry = (ws: TransportSocket<UserData>) => {
    clearTimers(ws);
    const at = ws.data.expiresAt.getTime();
    const warn = () => {
      if (ws.data.warnedFor === at) return;
      ws.data.warnedFor = at;
      send(ws, 'auth.expiring', {
        expires_at: new Date(at).toISOString(),
        expires_in: Math.max(0, Math.round((at - Date.now()) / 1000)),
      });
    };
    const left = at - Date.now();
    if (left <= 0) return end(ws, CLOSE_CODES.expired);
    if (left <= warningMs) warn();
    else ws.data.timers.push(setTimeout(warn, left - warningMs).unref());
    ws.data.timers.push(setTimeout(() => end(ws, CLOSE_CODES.expired), left).unref());
  };

  const renew = async (ws: TransportSocket<UserData>, data: { access_token: string } | { ticket: string }) => {
    let result: SocketIdentity | SocketRefusal;
    try {
      result = await authenticate(new URLSearchParams(data));
    } catch {
      return send(ws, 'error', {
        code: 'internal_error',
        message: 'Internal error.',
        details: { in_reply_to: 'auth.renew' },
      });
    }
    if ('code' in result) {
      // Refused renewals leave the socket as it was: the client may still renew with a good token
      // before the current expiry.
      return send(ws, 'error', {
        code: result.code,
        message: result.message,
        details: { ...result.details, in_reply_to: 'auth.renew' },
      });
    }
    if (result.accountId !== ws.data.accountId) {
      return send(ws, 'error', {
        code: 'forbidden',
        message: 'The token belongs to another account; open a new socket for it.',
        details: { reason: 'other_account', in_reply_to: 'auth.renew' },
      });
    }
    if (ws.data.closed) return;
    // A renewal with a token of a newer session (a new sign-in) moves the socket to that session,
    // so closing it closes this socket.
    ws.data.sessionId = result.sessionId;
    ws.data.expiresAt = result.expiresAt;
    send(ws, 'auth.renewed', { expires_at: result.expiresAt.toISOString() });
    scheduleExpiry(ws);
  };

  // Issue 32 point 8: what the API's own answers carry, on the gateway's too when it is deployed alone.
  const always = securityHeaders(config);
  const withAlwaysHeaders = (answer: HttpAnswer): HttpAnswer => ({
    ...answer,
    headers: { ...always, ...answer.headers },
  });
  const metrics = metricsAccess(config);

  const httpAnswer = (req: Parameters<TransportHandlers<UserData>['http']>[0]): HttpAnswer => {
    const requestId = req.header('x-request-id') || randomUUID();
    if (!req.upgrade && req.method === 'GET' && req.path === '/health') {
      return { status: 200, headers: { 'content-type': 'application/json' }, body: '{"status":"ok"}' };
    }
    // Deployed alone, the gateway answers the operator endpoints itself (DESIGN G4d). Its
    // one dependency of its own is the Redis subscription that delivers messages.
    if (!req.upgrade && req.method === 'GET' && req.path === '/livez') {
      return { status: 200, headers: { 'content-type': 'application/json' }, body: '{"status":"ok"}' };
    }
    if (!req.upgrade && req.method === 'GET' && req.path === '/readyz') {
      const ready = subscriber.status === 'ready';
      return {
        status: ready ? 200 : 503,
        headers: { 'content-type': 'application/json', 'cache-control': 'no-store' },
        body: JSON.stringify({ status: ready ? 'ready' : 'not_ready', checks: { cache: ready ? 'ok' : 'down' } }),
      };
    }
    if (!req.upgrade && req.method === 'GET' && req.path === '/metrics' && metrics !== 'closed') {
      if (metrics === 'token' && !carriesMetricsToken(req.header('authorization'), config.METRICS_TOKEN!)) {
        return envelope(401, 'unauthorized', 'The metrics need Authorization: Bearer <METRICS_TOKEN>.', requestId, {
          reason: 'metrics_token',
        });
      }
      return {
        status: 200,
        headers: { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'cache-control': 'no-store' },
        body: `${OPEN_SOCKETS_HELP}realtime_open_sockets ${openCount}\n`,
      };
    }
    if (!req.upgrade && req.method === 'GET' && req.path === ASYNCAPI_PATH) {
      return {
        status: 200,
        headers: { 'content-type': 'application/json', 'x-request-id': requestId },
        body: (asyncApiJson ??= JSON.stringify(asyncApiDocument(config))),
      };
    }
    return envelope(404, 'not_found', `Nothing at ${req.path}; the socket is ${SOCKET_PATH}.`, requestId);
  };

  let server;
  try {
    server = await transport.listen<UserData>({
      host: opts.host ?? config.HOST,
      port: opts.port,
      path: SOCKET_PATH,
      maxPayload: MAX_PAYLOAD,
      idleTimeoutS: 60,
      handlers: {
        http: (req) => withAlwaysHeaders(httpAnswer(req)),
        upgrade: async (req) => {
          const requestId = req.header('x-request-id') || randomUUID();
          try {
            const result = await authenticate(req.query);
            if ('code' in result) {
              return {
                refuse: withAlwaysHeaders(
                  envelope(result.status, result.code, result.message, requestId, result.details),
                ),
              };
            }
            return {
              accept: { ...result, connectionId: randomUUID(), closed: false, warnedFor: 0, timers: [] },
            };
          } catch {
            return { refuse: withAlwaysHeaders(envelope(500, 'internal_error', 'Internal error.', requestId)) };
          }
        },
        open: async (ws) => {
          openCount++;
          const { accountId } = ws.data;
          let set = sockets.get(accountId);
          if (!set) {
            set = new Set();
            sockets.set(accountId, set);
            subscribed.set(
              accountId,
              subscriber.subscribe(accountChannel(config.REDIS_KEY_PREFIX, accountId)).catch(() => 0),
            );
          }
          set.add(ws);
          // Subscribed before the greeting: whatever is published once the client has its
          // `hello` reaches it.
          await subscribed.get(accountId);
          send(ws, 'hello', {
            account_id: accountId,
            session_id: ws.data.sessionId,
            expires_at: ws.data.expiresAt.toISOString(),
          });
          scheduleExpiry(ws);
        },
        message: (ws, text) => {
          const parsed = parseClientMessage(text);
          if (!parsed.ok)
            return send(ws, 'error', { code: parsed.code, message: parsed.message, details: parsed.details });
          const msg = parsed.message;
          switch (msg.type) {
            case 'ping':
              return send(ws, 'pong', {});
            case 'auth.renew':
              return void renew(ws, msg.data);
          }
        },
        close: (ws) => {
          openCount--;
          ws.data.closed = true;
          clearTimers(ws);
          const { accountId } = ws.data;
          const set = sockets.get(accountId);
          if (!set) return;
          set.delete(ws);
          if (set.size === 0) {
            sockets.delete(accountId);
            subscribed.delete(accountId);
            void subscriber.unsubscribe(accountChannel(config.REDIS_KEY_PREFIX, accountId)).catch(() => {});
          }
        },
      },
    });
  } catch (err) {
    subscriber.disconnect();
    throw err;
  }
  const listening = server;
  return {
    port: listening.port,
    transport: `${transport.name} ${transport.version}`,
    openSockets: () => openCount,
    async close() {
      await listening.close();
      await subscriber.quit().catch(() => {});
    },
  };
}
