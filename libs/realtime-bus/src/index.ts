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

/**
 * The message types processes publish to accounts' sockets. The socket's AsyncAPI document
 * (apps/realtime `protocol.ts`) describes each one, and a test there holds the two lists
 * together: a publisher cannot send a type the document does not list.
 */
export const PUBLISHED_TYPES = ['session.closed', 'badges.updated', 'account.restricted'] as const;
export type PublishedType = (typeof PUBLISHED_TYPES)[number];

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
  type: PublishedType,
  data: unknown,
  now: Date,
): Promise<number> {
  const message: SocketMessage = { type, data, ts: now.toISOString() };
  return redis.publish(accountChannel(prefix, accountId), JSON.stringify(message));
}
