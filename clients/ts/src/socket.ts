import type { Client } from 'openapi-fetch';
import type { paths } from './generated/schema.ts';

/** Every message of `/v1/ws`: its type, its payload and when the server sent it. */
export interface SocketMessage<D = unknown> {
  type: string;
  data: D;
  ts: string;
}

/**
 * What the socket needs of a WebSocket: the standard browser interface, which Node.js 22+ has as
 * `globalThis.WebSocket` and the `ws` package implements (`import WebSocket from 'ws'`).
 */
export interface WebSocketLike {
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: 'open' | 'error', listener: (event: unknown) => void, options?: { once?: boolean }): void;
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
  addEventListener(type: 'close', listener: (event: { code: number; reason: string }) => void): void;
}
export type WebSocketConstructor = new (url: string) => WebSocketLike;

/** A credential, or a function that gets a fresh one (called for opening and for each renewal). */
export type Credential = string | (() => string | Promise<string>);

export interface SocketOptions {
  /** The API's base URL (`http(s)://…`); the socket is opened on `ws(s)://…/v1/ws`. */
  baseUrl: string;
  /** Apps: the access token of register, login or refresh (`/v1/ws?access_token=…`). */
  accessToken?: Credential;
  /**
   * Web: a socket ticket of `POST /v1/auth/ws-ticket` (one minute, single use), or a function that
   * gets one, e.g. `() => wsTicket(api)`.
   */
  ticket?: Credential;
  /**
   * The WebSocket implementation where the runtime has none (Node.js 20: `WebSocket` of the `ws`
   * package). Browsers and Node.js 22+ have one globally, used by default.
   */
  WebSocket?: WebSocketConstructor;
  /**
   * Renew by itself when the server says the socket is about to expire (`auth.expiring`), with a
   * fresh credential of the function given as `accessToken` or `ticket`. Default: true when that
   * credential is a function (a plain string cannot be renewed).
   */
  autoRenew?: boolean;
}

export interface GuestSocket extends AsyncIterable<SocketMessage> {
  /** The next message of this type (one already received counts), e.g. `await socket.next('hello')`. */
  next<D = unknown>(type: string, opts?: { timeoutMs?: number }): Promise<SocketMessage<D>>;
  /** Calls `listener` with each message as it arrives; returns the function that stops it. */
  on(listener: (message: SocketMessage) => void): () => void;
  /** Sends a message of the protocol, e.g. `send('ping')`. */
  send(type: string, data?: unknown): void;
  /**
   * Extends the socket past its expiry (`auth.renew`) with a fresh access token or ticket (default:
   * a fresh one from the function given when connecting); resolves with the new `expires_at`,
   * rejects with the server's refusal (`error`), the socket then keeping its current expiry.
   */
  renew(credential?: { access_token: string } | { ticket: string }): Promise<string>;
  close(code?: number, reason?: string): void;
  /** Resolves with the close code when the socket ends. */
  readonly closed: Promise<number>;
}

/**
 * The socket's refusal of a renewal (an `error` message answering `auth.renew`), with the code of
 * the HTTP error envelope.
 */
export class SocketError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'SocketError';
  }
}

/** A fresh socket ticket (`POST /v1/auth/ws-ticket`) from a signed-in client of `createGuestClient`. */
export async function wsTicket(api: Pick<Client<paths>, 'POST'>): Promise<string> {
  const { data, error, response } = await api.POST('/v1/auth/ws-ticket');
  if (!data) throw new Error(`POST /v1/auth/ws-ticket answered ${response.status}: ${JSON.stringify(error)}`);
  return data.ticket;
}

function parse(raw: unknown): SocketMessage | null {
  if (typeof raw !== 'string') return null;
  try {
    const m = JSON.parse(raw) as Partial<SocketMessage>;
    return typeof m?.type === 'string' ? { type: m.type, data: m.data, ts: String(m.ts ?? '') } : null;
  } catch {
    return null;
  }
}

/** Messages kept for `next()` and the iterator; beyond, the oldest go (`on()` saw them all). */
const MAX_WAITING = 1000;

const resolveCredential = async (c: Credential) => (typeof c === 'function' ? c() : c);

/**
 * Opens the socket of the signed-in guest and resolves once it is open; rejects when the server
 * refuses the upgrade or the connection fails. Apps pass `accessToken`, the web `ticket`.
 *
 * Messages not yet taken wait in order: `next(type)` takes the first of a type, and iterating the
 * socket (`for await (const m of socket)`) takes them all, in order, until it closes. `on()` sees
 * every message as it arrives, taken or not. At most the last 1,000 untaken messages wait.
 */
export async function connectSocket(opts: SocketOptions): Promise<GuestSocket> {
  const WS = opts.WebSocket ?? (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket;
  if (!WS) {
    throw new Error(
      'This runtime has no WebSocket (Node.js before 22): pass one, e.g. `WebSocket` of the `ws` package.',
    );
  }
  const credential = opts.ticket ?? opts.accessToken;
  if (credential === undefined) throw new Error('connectSocket needs `accessToken` (apps) or `ticket` (web).');
  const kind = opts.ticket !== undefined ? 'ticket' : 'access_token';
  const url = new URL('/v1/ws', opts.baseUrl.replace(/^http/, 'ws'));
  url.searchParams.set(kind, await resolveCredential(credential));
  const ws = new WS(url.href);

  const received: SocketMessage[] = [];
  const listeners = new Set<(m: SocketMessage) => void>();
  // Whoever waits for the next message in order (an iterator), woken by a message or the close.
  let wake: (() => void) | null = null;
  let ended = false;
  const closed = new Promise<number>((resolve) =>
    ws.addEventListener('close', (e) => {
      ended = true;
      wake?.();
      resolve(e.code);
    }),
  );
  ws.addEventListener('message', (e) => {
    const message = parse(e.data);
    if (!message) return;
    received.push(message);
    if (received.length > MAX_WAITING) received.shift();
    for (const l of [...listeners]) l(message);
    wake?.();
  });

  const socket: GuestSocket = {
    closed,
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    next<D>(type: string, { timeoutMs = 10_000 } = {}) {
      const i = received.findIndex((m) => m.type === type);
      if (i >= 0) return Promise.resolve(received.splice(i, 1)[0] as SocketMessage<D>);
      return new Promise<SocketMessage<D>>((resolve, reject) => {
        const stop = socket.on((m) => {
          if (m.type !== type) return;
          received.splice(received.indexOf(m), 1);
          finish();
          resolve(m as SocketMessage<D>);
        });
        const timer = setTimeout(() => {
          finish();
          reject(new Error(`no "${type}" message within ${timeoutMs} ms`));
        }, timeoutMs);
        const finish = () => {
          clearTimeout(timer);
          stop();
        };
      });
    },
    send(type, data) {
      ws.send(JSON.stringify(data === undefined ? { type } : { type, data }));
    },
    async renew(fresh) {
      const data = fresh ?? { [kind]: await resolveCredential(credential) };
      if (ended) throw new Error('the socket is closed');
      let stop = () => {};
      const answer = new Promise<SocketMessage>((resolve, reject) => {
        stop = socket.on((m) => {
          const inReply = (m.data as { details?: { in_reply_to?: string } } | null)?.details?.in_reply_to;
          if (m.type !== 'auth.renewed' && !(m.type === 'error' && inReply === 'auth.renew')) return;
          received.splice(received.indexOf(m), 1);
          resolve(m);
        });
        // A socket that closes first never answers.
        void closed.then((code) => reject(new Error(`the socket closed (${code}) before answering auth.renew`)));
      });
      socket.send('auth.renew', data);
      const m = await answer.finally(stop);
      if (m.type === 'error') {
        const e = m.data as { code: string; message: string; details: Record<string, unknown> };
        throw new SocketError(e.code, e.message, e.details);
      }
      return (m.data as { expires_at: string }).expires_at;
    },
    close(code, reason) {
      ws.close(code, reason);
    },
    async *[Symbol.asyncIterator]() {
      for (;;) {
        const message = received.shift();
        if (message) {
          yield message;
          continue;
        }
        if (ended) return;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
      }
    },
  };

  if (opts.autoRenew ?? typeof credential === 'function') {
    // A failed renewal leaves the socket to close with 4401 `expired`, which `closed` reports.
    socket.on((m) => {
      if (m.type === 'auth.expiring') socket.renew().catch(() => undefined);
    });
  }

  return new Promise((resolve, reject) => {
    ws.addEventListener('open', () => resolve(socket), { once: true });
    ws.addEventListener('error', () => reject(new Error(`the socket ${url.origin}/v1/ws did not open`)), {
      once: true,
    });
  });
}
