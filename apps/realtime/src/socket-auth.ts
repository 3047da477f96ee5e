import type { Runtime } from '@guest/runtime';
import { AuthError, authenticate, redeemWsTicket, sessionState } from '@guest/auth';
import type { SocketAuthenticator } from './gateway.ts';

/**
 * DESIGN G5c: apps send `access_token` (a token of the socket audience), the web sends a
 * single-use `ticket`. Either way the email must be confirmed (spec 5.12: the socket rechecks it)
 * and sign-in not restricted.
 */
export function socketAuthenticator(runtime: Pick<Runtime, 'config' | 'database' | 'redis'>): SocketAuthenticator {
  return async (query) => {
    const ticket = query.get('ticket');
    const token = query.get('access_token');
    if (ticket) {
      const identity = await redeemWsTicket(runtime.redis as never, ticket);
      if (!identity) return null;
      // Checked again at redemption: a ticket issued just before a logout or a login restriction
      // must not open a socket after it.
      const state = await sessionState(runtime, identity.accountId, identity.sessionId);
      if (!state?.emailConfirmed || state.restrictions.includes('login')) return null;
      return { accountId: identity.accountId, sessionId: identity.sessionId };
    }
    if (token) {
      try {
        const auth = await authenticate(runtime, token, 'socket');
        if (!auth.emailConfirmed) return null;
        return { accountId: auth.accountId, sessionId: auth.sessionId };
      } catch (err) {
        if (err instanceof AuthError) return null;
        throw err;
      }
    }
    return null;
  };
}
