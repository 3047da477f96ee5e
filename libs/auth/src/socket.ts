import type { Redis } from 'ioredis';
import type { Runtime } from '@guest/runtime';
import { AuthError, authenticate, sessionState } from './authenticate.ts';
import { redeemWsTicket } from './ws-ticket.ts';

export interface SocketIdentity {
  accountId: string;
  sessionId: string;
}

/**
 * Who opens `/v1/ws` (DESIGN G5c): apps send `access_token` (the guest API's access token), the web sends a
 * one-time `ticket`. Either way the session must be open, the email confirmed (the socket
 * rechecks it, spec 5.12) and sign-in not restricted; anything else is null (401 at upgrade).
 */
export function createSocketAuthenticator(runtime: Pick<Runtime, 'config' | 'database'> & { redis: Redis }) {
  return async (query: URLSearchParams): Promise<SocketIdentity | null> => {
    const token = query.get('access_token');
    const ticket = query.get('ticket');
    if (token) {
      try {
        const auth = await authenticate(runtime, token);
        return auth.emailConfirmed && !auth.restrictions.includes('login')
          ? { accountId: auth.accountId, sessionId: auth.sessionId }
          : null;
      } catch (err) {
        if (err instanceof AuthError) return null;
        throw err;
      }
    }
    if (ticket) {
      const identity = await redeemWsTicket(runtime.redis, ticket);
      if (!identity) return null;
      const state = await sessionState(runtime, identity.accountId, identity.sessionId);
      return state && state.emailConfirmed && !state.restrictions.includes('login') ? identity : null;
    }
    return null;
  };
}
