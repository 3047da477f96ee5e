import type { Redis } from 'ioredis';
import { randomToken } from './tokens.ts';

export interface WsTicketIdentity {
  accountId: string;
  sessionId: string;
}

const key = (ticket: string) => `ws-ticket:${ticket}`;

/** Spec 5.12: a one-minute, single-use ticket that opens nothing but the socket. */
export async function issueWsTicket(redis: Redis, identity: WsTicketIdentity, ttlS: number): Promise<string> {
  const ticket = randomToken();
  await redis.set(key(ticket), JSON.stringify(identity), 'EX', ttlS);
  return ticket;
}

/**
 * Redeems a ticket at most once: GETDEL is atomic, so of any number of concurrent redemptions
 * exactly one gets the identity. The caller still checks that the session is open.
 */
export async function redeemWsTicket(redis: Redis, ticket: string): Promise<WsTicketIdentity | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(ticket)) return null;
  const raw = await redis.getdel(key(ticket));
  if (!raw) return null;
  try {
    const v = JSON.parse(raw) as WsTicketIdentity;
    return typeof v.accountId === 'string' && typeof v.sessionId === 'string' ? v : null;
  } catch {
    return null;
  }
}
