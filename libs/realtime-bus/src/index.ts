import type { Redis } from 'ioredis';

/*
 * The socket bus: any process (write API, indexer, jobs) publishes a message for an account on
 * Redis; the realtime gateway (apps/realtime) delivers it to that account's open sockets.
 */

/** DESIGN G6a: every socket message is `{type, data, ts}`. */
export interface SocketMessage {
  type: string;
  data: unknown;
  ts: string;
}

// ioredis' keyPrefix does not apply to pub/sub channels, so the prefix is added here: two
// deployments (or two test runs) on one Redis never hear each other.
export function accountChannel(prefix: string, accountId: string): string {
  return `${prefix}ws:account:${accountId}`;
}

/** Any process (write API, indexer, jobs) tells an account's open sockets about something. */
export async function publishToAccount(
  redis: Redis,
  prefix: string,
  accountId: string,
  type: string,
  data: unknown,
  now: Date,
): Promise<number> {
  const message: SocketMessage = { type, data, ts: now.toISOString() };
  return redis.publish(accountChannel(prefix, accountId), JSON.stringify(message));
}
