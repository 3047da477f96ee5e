import { randomUUID } from 'node:crypto';
import type { Config } from '@guest/config';
import { systemClock, type Clock } from '@guest/runtime';
import { carriesMetricsToken, metricsAccess, securityHeaders } from '@guest/http-kit';
import { loadTransport, type HttpAnswer, type Transport } from './transport.ts';
import { ASYNCAPI_PATH, asyncApiDocument } from './asyncapi.ts';
import { parseClientMessage } from './protocol.ts';
import { clearTimers, sender, type SocketAuthenticator, type SocketState } from './sockets.ts';
import { expiryScheduler } from './expiry.ts';
import { accountSubscriptions } from './subscriptions.ts';
import { renewer } from './renewal.ts';

export { publishToAccount, accountChannel, type SocketMessage } from '@guest/realtime-bus';
export { TransportListenError, TransportLoadError } from './transport.ts';
export { asyncApiDocument, ASYNCAPI_PATH } from './asyncapi.ts';
export { socketProtocolPage, SOCKET_DOCS_CSP, SOCKET_DOCS_PATH } from './protocol-page.ts';
export type { SocketAuthenticator, SocketIdentity, SocketRefusal } from './sockets.ts';

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
 * The plain HTTP a gateway deployed alone answers itself (health, readiness, metrics, its
 * AsyncAPI document); anything else but the socket's upgrade is 404. The metrics as the API's
 * own: behind METRICS_TOKEN when it is set, not served at all where they must not be open.
 */
function operatorAnswer(
  req: { method: string; path: string; upgrade: boolean; header(name: string): string | undefined },
  state: { ready: boolean; openSockets: number; asyncApi: () => string },
  config: Config,
): HttpAnswer {
  const requestId = req.header('x-request-id') || randomUUID();
  const json = { 'content-type': 'application/json' };
  if (req.method === 'GET' && !req.upgrade) {
    // Its one dependency of its own is the Redis subscription that delivers messages.
    if (req.path === '/health' || req.path === '/livez') return { status: 200, headers: json, body: '{"status":"ok"}' };
    if (req.path === '/readyz') {
      const { ready } = state;
      return {
        status: ready ? 200 : 503,
        headers: { ...json, 'cache-control': 'no-store' },
        body: JSON.stringify({ status: ready ? 'ready' : 'not_ready', checks: { cache: ready ? 'ok' : 'down' } }),
      };
    }
    const metrics = metricsAccess(config);
    if (req.path === '/metrics' && metrics !== 'closed') {
      if (metrics === 'token' && !carriesMetricsToken(req.header('authorization'), config.METRICS_TOKEN!)) {
        return envelope(401, 'unauthorized', 'The metrics need Authorization: Bearer <METRICS_TOKEN>.', requestId, {
          reason: 'metrics_token',
        });
      }
      return {
        status: 200,
        headers: { 'content-type': 'text/plain; version=0.0.4; charset=utf-8', 'cache-control': 'no-store' },
        body: `${OPEN_SOCKETS_HELP}realtime_open_sockets ${state.openSockets}\n`,
      };
    }
    if (req.path === ASYNCAPI_PATH) {
      return { status: 200, headers: { ...json, 'x-request-id': requestId }, body: state.asyncApi() };
    }
  }
  return envelope(404, 'not_found', `Nothing at ${req.path}; the socket is ${SOCKET_PATH}.`, requestId);
}

/**
 * The realtime gateway: `/v1/ws` on its own port. Each socket is bound to one account and lives
 * until what opened it expires (`expiry.ts`) unless renewed in-band (`renewal.ts`); the gateway
 * subscribes to the account's Redis channel while one of its sockets is open
 * (`subscriptions.ts`), so any process can reach the account's devices with `publishToAccount`.
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
  /** What time it is and when a socket expires (the runtime's clock); default the system clock. */
  clock?: Clock;
}): Promise<Gateway> {
  const { config, authenticate } = opts;
  const clock = opts.clock ?? systemClock;
  // First the transport: a gateway that cannot serve sockets must not look started.
  const transport = await (opts.transport ?? loadTransport());
  const subscriptions = accountSubscriptions(config);
  const send = sender(clock);
  const scheduleExpiry = expiryScheduler(clock, config.WS_EXPIRY_WARNING_S * 1000, send);
  const renew = renewer(authenticate, send, scheduleExpiry);
  let openCount = 0;
  let asyncApiJson: string | undefined;
  // What the API's own answers carry (nosniff; HSTS on https), on the gateway's too when it is deployed alone.
  const always = securityHeaders(config);
  const withAlwaysHeaders = (answer: HttpAnswer): HttpAnswer => ({
    ...answer,
    headers: { ...always, ...answer.headers },
  });

  let server;
  try {
    server = await transport.listen<SocketState>({
      host: opts.host ?? config.HOST,
      port: opts.port,
      path: SOCKET_PATH,
      maxPayload: MAX_PAYLOAD,
      idleTimeoutS: 60,
      handlers: {
        http: (req) =>
          withAlwaysHeaders(
            operatorAnswer(
              req,
              {
                ready: subscriptions.ready(),
                openSockets: openCount,
                asyncApi: () => (asyncApiJson ??= JSON.stringify(asyncApiDocument(config))),
              },
              config,
            ),
          ),
        // Who opens the socket: refused with the HTTP envelope, or accepted bound to its account.
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
            return { accept: { ...result, connectionId: randomUUID(), closed: false, warnedFor: 0, timers: [] } };
          } catch {
            return { refuse: withAlwaysHeaders(envelope(500, 'internal_error', 'Internal error.', requestId)) };
          }
        },
        open: async (ws) => {
          openCount++;
          // Subscribed before the greeting: whatever is published once the client has its
          // `hello` reaches it.
          await subscriptions.add(ws);
          send(ws, 'hello', {
            account_id: ws.data.accountId,
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
          subscriptions.remove(ws);
        },
      },
    });
  } catch (err) {
    subscriptions.disconnect();
    throw err;
  }
  const listening = server;
  return {
    port: listening.port,
    transport: `${transport.name} ${transport.version}`,
    openSockets: () => openCount,
    async close() {
      await listening.close();
      await subscriptions.quit();
    },
  };
}
