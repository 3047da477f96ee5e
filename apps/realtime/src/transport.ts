import { createRequire } from 'node:module';
import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';

/** A WebSocket handshake at `path`: the only upgrade the API takes. */
export function isWebSocketHandshake(req: http.IncomingMessage, path: string): boolean {
  return (req.url ?? '').split('?')[0] === path && /\bwebsocket\b/i.test(req.headers.upgrade ?? '');
}

/**
 * Lets `server` upgrade only the requests `accept` takes; any other `Upgrade` (Java's HttpClient
 * offers `h2c` on every plain-HTTP request) is answered as the HTTP request it also is, as RFC
 * 9110 section 7.8 allows, instead of reaching the `upgrade` listeners. Node.js 24.9 and later
 * read `shouldUpgradeCallback`; an older one would upgrade every such request, so it is refused.
 */
export function upgradeOnly(server: http.Server, accept: (req: http.IncomingMessage) => boolean): void {
  const s = server as http.Server & { shouldUpgradeCallback?: (req: http.IncomingMessage) => boolean };
  if (typeof s.shouldUpgradeCallback !== 'function') {
    throw new Error(`Node.js ${process.version} cannot choose which requests to upgrade (24.9 or later can)`);
  }
  s.shouldUpgradeCallback = accept;
}

/**
 * The socket transport of the realtime gateway: a small interface, so the gateway does not care
 * which WebSocket library serves it, and one implementation on `ws`.
 *
 * Why `ws` and not uWebSockets.js: no registry build of uWebSockets.js loads on Node.js 24 on
 * these machines (Debian 12, glibc 2.36). `@trufflesuite/uws-js-unofficial` ships no binary for
 * Node 22/24 and silently falls back to a shim whose socket never answers; the builds that do ship
 * a Node 24 binary (`@btc-vision/uwebsockets.js`, `uwebsockets`) require GLIBC_2.38; the sources are
 * not on the npm registry. The evidence is in the README ("Socket transport").
 *
 * "Loaded" means more than `import` succeeded: `loadTransport` opens a server on a loopback port
 * and completes a real WebSocket handshake and one echoed frame with Node's own WebSocket client
 * (independent of the library under test). A transport that fails that check is refused, so the
 * gateway cannot start on a library that imports but does not serve (the failure seen with the
 * shim above).
 */

export interface UpgradeRequest {
  path: string;
  query: URLSearchParams;
  header(name: string): string | undefined;
}

export interface HttpAnswer {
  status: number;
  headers?: Record<string, string>;
  body: string;
}

export interface TransportSocket<U> {
  readonly data: U;
  send(text: string): void;
  /** Closes the socket with a WebSocket close code and reason. */
  end(code: number, reason: string): void;
}

export interface TransportHandlers<U> {
  /** Decides an upgrade on the socket path: the data the new socket carries, or the refusal. */
  upgrade(req: UpgradeRequest): Promise<{ accept: U } | { refuse: HttpAnswer }>;
  open(ws: TransportSocket<U>): void | Promise<void>;
  message(ws: TransportSocket<U>, text: string): void;
  close(ws: TransportSocket<U>): void;
  /** Plain HTTP requests, and upgrades on any other path. */
  http(req: UpgradeRequest & { method: string; upgrade: boolean }): HttpAnswer;
}

export interface ListenOptions<U> {
  host: string;
  port: number;
  /** The one path that upgrades, e.g. `/v1/ws`. */
  path: string;
  maxPayload: number;
  /** A socket that sends nothing (not even a pong to the server's pings) for this long is closed. */
  idleTimeoutS: number;
  handlers: TransportHandlers<U>;
}

export interface TransportServer {
  port: number;
  /** Stops listening and ends every open socket with 1001. */
  close(): Promise<void>;
}

export interface Transport {
  name: string;
  version: string;
  listen<U>(opts: ListenOptions<U>): Promise<TransportServer>;
}

/** The transport did not load, or loaded but failed the handshake check. */
export class TransportLoadError extends Error {
  override name = 'TransportLoadError';
}

/** The transport could not listen (the port is taken, or not allowed). */
export class TransportListenError extends Error {
  override name = 'TransportListenError';
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

const SELF_CHECK_TIMEOUT_MS = 5_000;
const loaded = new Map<string, Promise<Transport>>();

/**
 * Loads the `ws` transport and proves it serves (see the module comment). `from` is where the
 * package is resolved from (default: this module), so the check can be run against another
 * installation. The result is cached per `from`.
 */
export function loadTransport(opts: { from?: string } = {}): Promise<Transport> {
  const from = opts.from ?? import.meta.url;
  let pending = loaded.get(from);
  if (!pending) {
    pending = load(from);
    loaded.set(from, pending);
    // A failed load is not cached: the next start tries again.
    pending.catch(() => loaded.delete(from));
  }
  return pending;
}

async function load(from: string): Promise<Transport> {
  const require = createRequire(from);
  let wsModule: any;
  let version: string;
  try {
    wsModule = require('ws');
    version = String((require('ws/package.json') as { version?: unknown }).version ?? 'unknown');
  } catch (err) {
    throw new TransportLoadError(`the socket transport (ws) could not be loaded: ${(err as Error).message}`);
  }
  const Server = wsModule?.WebSocketServer ?? wsModule?.Server;
  if (typeof Server !== 'function') {
    throw new TransportLoadError(`the socket transport (ws ${version}) has no WebSocketServer export`);
  }
  const transport = wsTransport(Server, version);
  try {
    await selfCheck(transport);
  } catch (err) {
    throw new TransportLoadError(
      `the socket transport (ws ${version}) loaded but did not serve a WebSocket on a loopback port: ${(err as Error).message}`,
    );
  }
  return transport;
}

/** A server on 127.0.0.1:0, a handshake by Node's own client, one frame each way. */
async function selfCheck(transport: Transport): Promise<void> {
  const Client = (globalThis as { WebSocket?: typeof WebSocket }).WebSocket;
  if (typeof Client !== 'function') throw new Error(`Node ${process.version} has no WebSocket client`);
  const nonce = randomUUID();
  const server = await transport.listen<{ probe: true }>({
    host: '127.0.0.1',
    port: 0,
    path: '/probe',
    maxPayload: 1024,
    idleTimeoutS: 10,
    handlers: {
      upgrade: async () => ({ accept: { probe: true } }),
      open: (ws) => ws.send('ready'),
      message: (ws, text) => ws.send(text),
      close: () => {},
      http: () => ({ status: 404, body: '' }),
    },
  });
  try {
    await new Promise<void>((resolve, reject) => {
      const client = new Client(`ws://127.0.0.1:${server.port}/probe`);
      const timer = setTimeout(() => {
        client.close();
        reject(new Error(`no handshake and echo within ${SELF_CHECK_TIMEOUT_MS} ms`));
      }, SELF_CHECK_TIMEOUT_MS);
      client.addEventListener('message', (ev) => {
        if (ev.data === 'ready') return client.send(nonce);
        clearTimeout(timer);
        client.close();
        if (ev.data === nonce) resolve();
        else reject(new Error('the echoed frame differs from the one sent'));
      });
      client.addEventListener('error', () => {
        clearTimeout(timer);
        reject(new Error('the WebSocket handshake failed'));
      });
    });
  } finally {
    await server.close();
  }
}

function rawResponse(socket: Duplex, answer: HttpAnswer): void {
  const body = Buffer.from(answer.body);
  const head = [
    `HTTP/1.1 ${answer.status} ${http.STATUS_CODES[answer.status] ?? ''}`,
    ...Object.entries(answer.headers ?? {}).map(([k, v]) => `${k}: ${v}`),
    `content-length: ${body.length}`,
    'connection: close',
  ];
  socket.end(Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), body]));
}

function wsTransport(Server: any, version: string): Transport {
  return {
    name: 'ws',
    version,
    async listen<U>(opts: ListenOptions<U>): Promise<TransportServer> {
      const { handlers } = opts;
      const request = (req: http.IncomingMessage) => {
        const url = new URL(req.url ?? '/', 'http://gateway');
        return {
          path: url.pathname,
          query: url.searchParams,
          header: (name: string) => {
            const v = req.headers[name.toLowerCase()];
            return Array.isArray(v) ? v.join(', ') : v;
          },
        };
      };
      const server = http.createServer((req, res) => {
        const answer = handlers.http({ ...request(req), method: req.method ?? 'GET', upgrade: false });
        res.writeHead(answer.status, answer.headers ?? {}).end(answer.body);
      });
      upgradeOnly(server, (req) => isWebSocketHandshake(req, opts.path));
      const wss = new Server({ noServer: true, maxPayload: opts.maxPayload, perMessageDeflate: false });
      const alive = new WeakMap<object, boolean>();

      // Upgraded connections leave the HTTP server's bookkeeping (closeAllConnections does not
      // reach them): tracked here, so that close() can always finish.
      const upgraded = new Set<Duplex>();
      server.on('upgrade', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => {
        upgraded.add(socket);
        socket.on('close', () => upgraded.delete(socket));
        socket.on('error', () => socket.destroy());
        const r = request(req);
        if (r.path !== opts.path) {
          rawResponse(socket, handlers.http({ ...r, method: req.method ?? 'GET', upgrade: true }));
          return;
        }
        handlers.upgrade(r).then(
          (decision) => {
            if (socket.destroyed) return;
            if ('refuse' in decision) return rawResponse(socket, decision.refuse);
            wss.handleUpgrade(req, socket, head, (ws: any) => {
              const wrapped: TransportSocket<U> = {
                data: decision.accept,
                send: (text) => ws.send(text),
                end: (code, reason) => ws.close(code, reason),
              };
              alive.set(ws, true);
              ws.on('pong', () => alive.set(ws, true));
              ws.on('message', (raw: Buffer | ArrayBuffer | Buffer[]) => {
                alive.set(ws, true);
                const text = Array.isArray(raw)
                  ? Buffer.concat(raw).toString('utf8')
                  : Buffer.from(raw as Buffer).toString('utf8');
                handlers.message(wrapped, text);
              });
              ws.on('close', () => handlers.close(wrapped));
              ws.on('error', () => ws.terminate());
              void Promise.resolve(handlers.open(wrapped)).catch(() => ws.close(1011, 'internal error'));
            });
          },
          () => {
            if (!socket.destroyed) rawResponse(socket, { status: 500, body: '' });
          },
        );
      });

      // Keep-alive: ping every half idle period; a socket that answered nothing since the last
      // ping is dropped (what uWebSockets.js' idleTimeout with automatic pings did).
      const heartbeat = setInterval(
        () => {
          for (const ws of wss.clients as Set<any>) {
            if (!alive.get(ws)) {
              ws.terminate();
              continue;
            }
            alive.set(ws, false);
            ws.ping();
          }
        },
        Math.max(1, opts.idleTimeoutS / 2) * 1000,
      );
      heartbeat.unref();

      await new Promise<void>((resolve, reject) => {
        const onError = (err: NodeJS.ErrnoException) => {
          clearInterval(heartbeat);
          const why =
            err.code === 'EADDRINUSE'
              ? 'the port is already in use'
              : err.code === 'EACCES'
                ? 'permission denied'
                : err.message;
          reject(new TransportListenError(`cannot listen on ${opts.host}:${opts.port}: ${why}`, err.code));
        };
        server.once('error', onError);
        server.listen(opts.port, opts.host, () => {
          server.off('error', onError);
          resolve();
        });
      });

      return {
        port: (server.address() as AddressInfo).port,
        async close() {
          clearInterval(heartbeat);
          const closed = new Promise<void>((resolve) => server.close(() => resolve()));
          server.closeIdleConnections();
          const sockets = [...(wss.clients as Set<any>)];
          for (const ws of sockets) ws.close(1001, 'going away');
          // A peer that does not answer the close frame is cut after a short grace.
          const grace = setTimeout(() => {
            for (const ws of sockets) ws.terminate();
            for (const socket of upgraded) socket.destroy();
            server.closeAllConnections();
          }, 1_000);
          grace.unref();
          await closed;
          clearTimeout(grace);
          wss.close();
        },
      };
    },
  };
}
