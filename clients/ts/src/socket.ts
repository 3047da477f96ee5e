/** Every message of `/v1/ws`: its type, its payload and when the server sent it. */
export interface SocketMessage<D = unknown> {
  type: string;
  data: D;
  ts: string;
}

export interface SocketOptions {
  /** The API's base URL (`http(s)://…`); the socket is opened on `ws(s)://…/v1/ws`. */
  baseUrl: string;
  /** Apps: the access token of register, login or refresh. */
  accessToken?: string;
  /** Web: a socket ticket of `POST /v1/auth/ws-ticket` (the page holds no access token). */
  ticket?: string;
  /** Another WebSocket implementation (browsers and Node.js 22+ have one globally). */
  WebSocket?: typeof globalThis.WebSocket;
}

export interface GuestSocket {
  /** The next message of this type (one already received counts), e.g. `await socket.next('hello')`. */
  next<D = unknown>(type: string, opts?: { timeoutMs?: number }): Promise<SocketMessage<D>>;
  /** Calls `listener` with each message as it arrives; returns the function that stops it. */
  on(listener: (message: SocketMessage) => void): () => void;
  /** Sends a message of the protocol, e.g. `send('ping')`. */
  send(type: string, data?: unknown): void;
  close(code?: number, reason?: string): void;
  /** Resolves with the close code when the socket ends. */
  readonly closed: Promise<number>;
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

/**
 * Opens the socket of the signed-in guest (`/v1/ws?access_token=…`, or `?ticket=…` for the web) and
 * resolves once it is open; rejects when the server refuses the upgrade or the connection fails.
 */
export function connectSocket(opts: SocketOptions): Promise<GuestSocket> {
  const WS = opts.WebSocket ?? globalThis.WebSocket;
  const url = new URL('/v1/ws', opts.baseUrl.replace(/^http/, 'ws'));
  if (opts.ticket) url.searchParams.set('ticket', opts.ticket);
  else if (opts.accessToken) url.searchParams.set('access_token', opts.accessToken);
  else throw new Error('connectSocket needs accessToken (apps) or ticket (web)');
  const ws = new WS(url);
  const received: SocketMessage[] = [];
  const listeners = new Set<(m: SocketMessage) => void>();
  const closed = new Promise<number>((resolve) => ws.addEventListener('close', (e) => resolve(e.code)));
  ws.addEventListener('message', (e) => {
    const message = parse(e.data);
    if (!message) return;
    received.push(message);
    for (const l of listeners) l(message);
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
    close(code, reason) {
      ws.close(code, reason);
    },
  };

  return new Promise((resolve, reject) => {
    ws.addEventListener('open', () => resolve(socket), { once: true });
    ws.addEventListener('error', () => reject(new Error(`the socket ${url.origin}/v1/ws did not open`)), {
      once: true,
    });
  });
}
