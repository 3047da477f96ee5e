import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import type { Config } from '@guest/config';
import { accountChannel, type SocketMessage } from '@guest/realtime-bus';
import { loadTransport, type HttpAnswer, type Transport, type TransportSocket } from './transport.ts';

export { publishToAccount, accountChannel, type SocketMessage } from '@guest/realtime-bus';
export { TransportListenError, TransportLoadError } from './transport.ts';

export interface SocketIdentity {
  accountId: string;
  sessionId: string;
  /** When the token (or the ticket's socket lifetime) that opened the socket lapses. */
  expiresAt: Date;
}

/** Why a socket is not opened: the HTTP status and code of the error envelope. */
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
}

export interface Gateway {
  port: number;
  /** The socket library in use and its version, e.g. `ws 8.23.0`. */
  transport: string;
  close(): Promise<void>;
}

const MAX_PAYLOAD = 16 * 1024;
const SOCKET_PATH = '/v1/ws';

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
      if (closedSession && closedSession === ws.data.sessionId) ws.end(4001, 'session closed');
    }
  });

  const send = (ws: TransportSocket<UserData>, type: string, data: unknown) =>
    ws.send(JSON.stringify({ type, data, ts: new Date().toISOString() }));

  let server;
  try {
    server = await transport.listen<UserData>({
      host: opts.host ?? config.HOST,
      port: opts.port,
      path: SOCKET_PATH,
      maxPayload: MAX_PAYLOAD,
      idleTimeoutS: 60,
      handlers: {
        http: (req) => {
          const requestId = req.header('x-request-id') || randomUUID();
          if (!req.upgrade && req.method === 'GET' && req.path === '/health') {
            return { status: 200, headers: { 'content-type': 'application/json' }, body: '{"status":"ok"}' };
          }
          return envelope(404, 'not_found', `Nothing at ${req.path}; the socket is ${SOCKET_PATH}.`, requestId);
        },
        upgrade: async (req) => {
          const requestId = req.header('x-request-id') || randomUUID();
          try {
            const result = await authenticate(req.query);
            if ('code' in result) {
              return { refuse: envelope(result.status, result.code, result.message, requestId, result.details) };
            }
            return {
              accept: { ...result, connectionId: randomUUID() },
            };
          } catch {
            return { refuse: envelope(500, 'internal_error', 'Internal error.', requestId) };
          }
        },
        open: async (ws) => {
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
          send(ws, 'hello', { account_id: accountId });
        },
        message: (ws, text) => {
          let msg: { type?: unknown } | null = null;
          try {
            msg = JSON.parse(text);
          } catch {
            msg = null;
          }
          if (msg && msg.type === 'ping') return void send(ws, 'pong', {});
          send(ws, 'error', { code: 'validation_error', message: 'Unknown message; send {"type":"ping"}.' });
        },
        close: (ws) => {
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
    async close() {
      await listening.close();
      await subscriber.quit().catch(() => {});
    },
  };
}
