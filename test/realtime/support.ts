import WebSocket from 'ws';
import { signAccessToken } from '@guest/auth';
import type { Config } from '@guest/config';

/** An open socket as a client sees it: every message received, and how it was closed. */
export interface Opened {
  ws: WebSocket;
  messages: any[];
  /** The first message of this type received from now on or already received, in order. */
  next(type: string, where?: (m: any) => boolean): Promise<any>;
  closed: Promise<{ code: number; reason: string; at: number }>;
  send(message: unknown): void;
}

/** What a client sees of a refused upgrade: the HTTP status, headers and the parsed body. */
export interface Refused extends Error {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** Opens `url`; resolves once open, rejects with the HTTP answer of a refused upgrade. */
export function connect(url: string): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const messages: any[] = [];
    const waiters: Array<{ type: string; where: (m: any) => boolean; resolve: (m: any) => void }> = [];
    ws.on('message', (raw) => {
      const m = JSON.parse(String(raw));
      messages.push(m);
      for (const w of waiters.filter((w) => w.type === m.type && w.where(m))) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    });
    const closed = new Promise<{ code: number; reason: string; at: number }>((res) =>
      ws.on('close', (code, reason) => res({ code, reason: String(reason), at: Date.now() })),
    );
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => {
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          body = text;
        }
        reject(
          Object.assign(new Error(`refused: ${res.statusCode} ${text}`), {
            status: res.statusCode,
            headers: res.headers,
            body,
          }),
        );
      });
    });
    ws.on('error', (err) => reject(err));
    ws.on('open', () =>
      resolve({
        ws,
        messages,
        closed,
        send: (message) => ws.send(typeof message === 'string' ? message : JSON.stringify(message)),
        next: (type, where = () => true) => {
          const found = messages.find((m) => m.type === type && where(m));
          if (found) return Promise.resolve(found);
          return new Promise((r) => waiters.push({ type, where, resolve: r }));
        },
      }),
    );
  });
}

/** The refusal of an upgrade that must fail; throws when the socket opened. */
export async function refusal(url: string): Promise<Refused> {
  try {
    const opened = await connect(url);
    opened.ws.close();
  } catch (err) {
    if ((err as Refused).status) return err as Refused;
    throw err;
  }
  throw new Error(`the socket at ${url} opened`);
}

/** Asserts the error envelope on a refused upgrade, with `X-Request-Id` equal to its `request_id`. */
export function envelopeOf(r: Refused) {
  const e = r.body?.error;
  if (!e || typeof e.message !== 'string' || typeof e.request_id !== 'string' || typeof e.details !== 'object') {
    throw new Error(`no error envelope: ${r.status} ${JSON.stringify(r.body)}`);
  }
  if (r.headers['x-request-id'] !== e.request_id) {
    throw new Error(`X-Request-Id ${String(r.headers['x-request-id'])} differs from ${e.request_id}`);
  }
  return { status: r.status, code: e.code as string, details: e.details as Record<string, unknown> };
}

/**
 * A real access token of the session, signed so that it lapses `inS` whole seconds after `now`
 * (the clock of the server that checks it; in the past when negative): short lifetimes without
 * waiting for the configured one.
 */
export async function tokenExpiringIn(
  config: Config,
  who: { accountId: string; sessionId: string },
  inS: number,
  now: Date,
): Promise<{ token: string; exp: number }> {
  const exp = Math.ceil(now.getTime() / 1000) + inS;
  const issuedAt = new Date((exp - config.ACCESS_TOKEN_TTL_S) * 1000);
  return { token: await signAccessToken(config, who, issuedAt), exp };
}
