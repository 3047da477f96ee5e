import { Redis } from 'ioredis';
import type { Config } from '@guest/config';
import { accountChannel, type SocketMessage } from '@guest/realtime-bus';
import { CLOSE_CODES } from './protocol.ts';
import { end, type Socket } from './sockets.ts';

/**
 * The account channels of the open sockets: the gateway subscribes to an account's Redis channel
 * while at least one of its sockets is open, so any process reaches the account's devices with
 * `publishToAccount`; what arrives goes to every socket of the account as it is.
 */
export function accountSubscriptions(config: Pick<Config, 'REDIS_URL' | 'REDIS_KEY_PREFIX'>) {
  const subscriber = new Redis(config.REDIS_URL, { lazyConnect: false });
  subscriber.on('error', () => {});
  const sockets = new Map<string, Set<Socket>>();
  const subscribed = new Map<string, Promise<unknown>>();
  const channel = (accountId: string) => accountChannel(config.REDIS_KEY_PREFIX, accountId);

  subscriber.on('message', (from: string, raw: string) => {
    const set = sockets.get(from.slice(channel('').length));
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

  return {
    /** Whether messages can be delivered (the `/readyz` of a gateway deployed alone). */
    ready: () => subscriber.status === 'ready',
    /** Adds an open socket; resolves once its account's channel is subscribed. */
    async add(ws: Socket): Promise<void> {
      const { accountId } = ws.data;
      let set = sockets.get(accountId);
      if (!set) {
        set = new Set();
        sockets.set(accountId, set);
        subscribed.set(
          accountId,
          subscriber.subscribe(channel(accountId)).catch(() => 0),
        );
      }
      set.add(ws);
      await subscribed.get(accountId);
    },
    /** Removes a closed socket; the last of an account's sockets ends its subscription. */
    remove(ws: Socket): void {
      const { accountId } = ws.data;
      const set = sockets.get(accountId);
      if (!set) return;
      set.delete(ws);
      if (set.size === 0) {
        sockets.delete(accountId);
        subscribed.delete(accountId);
        void subscriber.unsubscribe(channel(accountId)).catch(() => {});
      }
    },
    disconnect: () => subscriber.disconnect(),
    quit: () => subscriber.quit().catch(() => {}),
  };
}
