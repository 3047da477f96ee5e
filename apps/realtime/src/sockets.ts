import type { Clock } from '@guest/runtime';
import type { TransportSocket } from './transport.ts';
import type { ServerData, ServerMessageType } from './protocol.ts';

/** Who a socket belongs to, as its authentication found it. */
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

/** What the gateway keeps on each socket. */
export interface SocketState extends SocketIdentity {
  connectionId: string;
  closed: boolean;
  /** The expiry `auth.expiring` was last sent for, so it is sent once per expiry. */
  warnedFor: number;
  /** Cancels of the socket's expiry timers. */
  timers: Array<() => void>;
}

export type Socket = TransportSocket<SocketState>;

/** Sends a server message to an open socket, stamped with the clock's time. */
export type Send = <T extends ServerMessageType>(ws: Socket, type: T, data: ServerData<T>) => void;

export function sender(clock: Clock): Send {
  return (ws, type, data) => {
    if (!ws.data.closed) ws.send(JSON.stringify({ type, data, ts: clock.now().toISOString() }));
  };
}

/** Cancels the socket's timers (its expiry). */
export function clearTimers(ws: Socket): void {
  for (const cancel of ws.data.timers) cancel();
  ws.data.timers = [];
}

/** Closes a socket with its close code, once. */
export function end(ws: Socket, close: { code: number; reason: string }): void {
  if (ws.data.closed) return;
  ws.data.closed = true;
  clearTimers(ws);
  ws.end(close.code, close.reason);
}
