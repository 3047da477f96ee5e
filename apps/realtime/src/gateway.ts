import uWS from 'uWebSockets.js';
import { Redis } from 'ioredis';
import { randomUUID } from 'node:crypto';
import type { Config } from '@guest/config';
import { accountChannel, type SocketMessage } from '@guest/realtime-bus';

export { publishToAccount, accountChannel, type SocketMessage } from '@guest/realtime-bus';

export interface SocketIdentity {
  accountId: string;
  sessionId: string | null;
}

/** Finds who opens the socket from its query (`access_token` for apps, `ticket` for the web, G5c). */
export type SocketAuthenticator = (query: URLSearchParams) => Promise<SocketIdentity | null>;

interface UserData extends SocketIdentity {
  connectionId: string;
}

export interface Gateway {
  port: number;
  close(): Promise<void>;
}

const MAX_PAYLOAD = 16 * 1024;

function envelopeText(code: string, message: string, requestId: string): string {
  return JSON.stringify({ error: { code, message, details: {}, request_id: requestId } });
}

/**
 * The realtime gateway: `/v1/ws` on uWebSockets.js. Each socket is bound to one account; the
 * gateway subscribes to that account's Redis channel while at least one of its sockets is open,
 * so any process can reach the account's devices with `publishToAccount`.
 */
export async function startGateway(opts: {
  config: Config;
  authenticate: SocketAuthenticator;
  port: number;
  host?: string;
}): Promise<Gateway> {
  const { config, authenticate } = opts;
  const subscriber = new Redis(config.REDIS_URL, { lazyConnect: false });
  subscriber.on('error', () => {});
  const sockets = new Map<string, Set<uWS.WebSocket<UserData>>>();

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
    for (const ws of set) {
      ws.send(raw);
      // A closed session must lose its socket at once, not at the next token check.
      const closedSession = msg.type === 'session.closed' && (msg.data as { session_id?: string })?.session_id;
      if (closedSession && closedSession === ws.getUserData().sessionId) ws.end(4001, 'session closed');
    }
  });

  const send = (ws: uWS.WebSocket<UserData>, type: string, data: unknown) =>
    ws.send(JSON.stringify({ type, data, ts: new Date().toISOString() }));

  const app = uWS
    .App()
    .get('/health', (res) => {
      res.writeHeader('content-type', 'application/json').end(JSON.stringify({ status: 'ok' }));
    })
    .ws<UserData>('/v1/ws', {
      maxPayloadLength: MAX_PAYLOAD,
      idleTimeout: 60,
      sendPingsAutomatically: true,
      upgrade: (res, req, context) => {
        const query = new URLSearchParams(req.getQuery() ?? '');
        const key = req.getHeader('sec-websocket-key');
        const protocol = req.getHeader('sec-websocket-protocol');
        const extensions = req.getHeader('sec-websocket-extensions');
        const requestId = req.getHeader('x-request-id') || randomUUID();
        let aborted = false;
        res.onAborted(() => {
          aborted = true;
        });
        authenticate(query)
          .then((identity) => {
            if (aborted) return;
            res.cork(() => {
              if (!identity) {
                res
                  .writeStatus('401 Unauthorized')
                  .writeHeader('content-type', 'application/json')
                  .writeHeader('x-request-id', requestId)
                  .end(envelopeText('unauthorized', 'A valid access_token or ticket is required.', requestId));
                return;
              }
              res.upgrade<UserData>({ ...identity, connectionId: randomUUID() }, key, protocol, extensions, context);
            });
          })
          .catch(() => {
            if (aborted) return;
            res.cork(() => {
              res
                .writeStatus('500 Internal Server Error')
                .writeHeader('content-type', 'application/json')
                .end(envelopeText('internal_error', 'Internal error.', requestId));
            });
          });
      },
      open: (ws) => {
        const { accountId } = ws.getUserData();
        let set = sockets.get(accountId);
        if (!set) {
          set = new Set();
          sockets.set(accountId, set);
          void subscriber.subscribe(accountChannel(config.REDIS_KEY_PREFIX, accountId));
        }
        set.add(ws);
        send(ws, 'hello', { account_id: accountId });
      },
      message: (ws, raw) => {
        let msg: { type?: unknown } | null = null;
        try {
          msg = JSON.parse(Buffer.from(raw).toString('utf8'));
        } catch {
          msg = null;
        }
        if (msg && msg.type === 'ping') return void send(ws, 'pong', {});
        send(ws, 'error', { code: 'validation_error', message: 'Unknown message; send {"type":"ping"}.' });
      },
      close: (ws) => {
        const { accountId } = ws.getUserData();
        const set = sockets.get(accountId);
        if (!set) return;
        set.delete(ws);
        if (set.size === 0) {
          sockets.delete(accountId);
          void subscriber.unsubscribe(accountChannel(config.REDIS_KEY_PREFIX, accountId));
        }
      },
    });

  const listenSocket = await new Promise<uWS.us_listen_socket>((resolve, reject) => {
    app.listen(opts.host ?? config.HOST, opts.port, (s) =>
      s ? resolve(s) : reject(new Error(`cannot listen on ${opts.port}`)),
    );
  });
  return {
    port: uWS.us_socket_local_port(listenSocket),
    async close() {
      uWS.us_listen_socket_close(listenSocket);
      for (const set of sockets.values()) for (const ws of set) ws.end(1001, 'going away');
      await subscriber.quit().catch(() => {});
    },
  };
}
