import type { Runtime } from '@guest/runtime';
import { AuthError, authenticate, redeemWsTicket } from '@guest/auth';
import type { SocketAuthenticator } from './gateway.ts';

// For a ticket the session and the account are checked again at redemption: a ticket issued just
// before a logout must not open a socket after it.
const TICKET_SESSION = `
select a.email_confirmed_at is not null as email_confirmed
  from sessions s join accounts a on a.id = s.account_id
 where s.id = $1 and s.account_id = $2 and s.closed_at is null and s.expires_at > now() and a.status <> 'deleted'`;

/**
 * DESIGN G5c: apps send `access_token` (the access token of the guest API, DESIGN G5b), the web sends a
 * single-use `ticket`. Either way the email must be confirmed (spec 5.12: the socket rechecks it).
 */
export function socketAuthenticator(runtime: Pick<Runtime, 'config' | 'database' | 'redis'>): SocketAuthenticator {
  return async (query) => {
    const ticket = query.get('ticket');
    const token = query.get('access_token');
    if (ticket) {
      const identity = await redeemWsTicket(runtime.redis as never, ticket);
      if (!identity) return null;
      const { rows } = await runtime.database.pool.query<{ email_confirmed: boolean }>(TICKET_SESSION, [
        identity.sessionId,
        identity.accountId,
      ]);
      if (!rows[0]?.email_confirmed) return null;
      return { accountId: identity.accountId, sessionId: identity.sessionId };
    }
    if (token) {
      try {
        const auth = await authenticate(runtime, token);
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
