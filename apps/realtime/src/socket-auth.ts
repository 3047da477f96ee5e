import type { Runtime } from '@guest/runtime';
import { AuthError, authenticate, redeemWsTicket, sessionState } from '@guest/auth';
import type { SocketAuthenticator, SocketRefusal } from './sockets.ts';

const refuse = {
  unauthorized: (reason: string, message: string): SocketRefusal => ({
    status: 401,
    code: 'unauthorized',
    message,
    details: { reason },
  }),
  unconfirmed: (): SocketRefusal => ({
    status: 403,
    code: 'email_not_confirmed',
    message: 'Confirm your email address first: the socket needs a confirmed email.',
    details: {},
  }),
  restricted: (): SocketRefusal => ({
    status: 403,
    code: 'account_restricted',
    message: 'This account is restricted from signing in.',
    details: { restrictions: ['login'] },
  }),
};

const TOKEN_MESSAGES: Record<string, string> = {
  expired: 'The access token has expired; refresh it and connect again.',
  session_closed: 'This session has been closed; sign in again.',
  invalid: 'The access token is not valid here.',
  missing: 'Send access_token (apps) or ticket (web) in the query.',
};

/**
 * DESIGN G5c: apps send `access_token` (the access token of the guest API, DESIGN G5b), the web sends a
 * single-use `ticket`. Either way the session must be open, the email confirmed (spec 5.12: the
 * socket rechecks it) and sign-in not restricted. A refusal says why, with the codes of the HTTP
 * guards (spec 5.6, 5.7), so a client knows whether to refresh, confirm its email or sign in.
 *
 * A ticket carries no expiry of its own: a socket opened with one lives an access token's lifetime
 * (`ACCESS_TOKEN_TTL_S`) from then, like a token issued at that moment.
 */
export function socketAuthenticator(
  runtime: Pick<Runtime, 'config' | 'database' | 'redis' | 'clock'>,
): SocketAuthenticator {
  return async (query) => {
    const ticket = query.get('ticket');
    const token = query.get('access_token');
    if (ticket) {
      // The session and the account are checked again at redemption: a ticket issued just before
      // a logout must not open a socket after it.
      const identity = await redeemWsTicket(runtime.redis as never, ticket);
      if (!identity) {
        return refuse.unauthorized('ticket_invalid', 'The ticket is unknown, used or lapsed; get a new one.');
      }
      const state = await sessionState(runtime, identity.accountId, identity.sessionId);
      if (!state) return refuse.unauthorized('session_closed', TOKEN_MESSAGES.session_closed!);
      if (!state.emailConfirmed) return refuse.unconfirmed();
      if (state.restrictions.includes('login')) return refuse.restricted();
      return {
        accountId: identity.accountId,
        sessionId: identity.sessionId,
        expiresAt: new Date(runtime.clock.now().getTime() + runtime.config.ACCESS_TOKEN_TTL_S * 1000),
      };
    }
    if (token) {
      try {
        const auth = await authenticate(runtime, token);
        if (!auth.emailConfirmed) return refuse.unconfirmed();
        if (auth.restrictions.includes('login')) return refuse.restricted();
        return { accountId: auth.accountId, sessionId: auth.sessionId, expiresAt: auth.expiresAt };
      } catch (err) {
        if (err instanceof AuthError && err.reason === 'login_restricted') return refuse.restricted();
        if (err instanceof AuthError) return refuse.unauthorized(err.reason, TOKEN_MESSAGES[err.reason]!);
        throw err;
      }
    }
    return refuse.unauthorized('missing', TOKEN_MESSAGES.missing!);
  };
}
