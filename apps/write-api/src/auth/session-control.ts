import type { z } from 'zod';
import { errors } from '@guest/http-kit';
import { issueWsTicket, type AuthContext } from '@guest/auth';
import type { WriteDeps } from '../deps.ts';
import type { SessionResponse } from './schemas.ts';
import { listSessions } from './session-list.ts';
import { announceClosed, closeSessions } from './sessions.ts';

type SessionControlDeps = Pick<WriteDeps, 'config' | 'database' | 'redis' | 'log' | 'clock'>;

/**
 * What a signed-in guest does with the sessions of the account: list them, end the current one,
 * the others or a chosen one (open sockets of an ended session are told at once), and get a
 * one-time socket ticket for the current one.
 */
export function createSessionControl(deps: SessionControlDeps) {
  const { database } = deps;
  return {
    list(auth: AuthContext): Promise<z.input<typeof SessionResponse>[]> {
      return listSessions(database.db, auth, deps.clock.now());
    },

    async logout(auth: AuthContext): Promise<void> {
      const closed = await closeSessions(
        database.db,
        auth.accountId,
        { only: auth.sessionId, now: deps.clock.now() },
        'logout',
      );
      await announceClosed(deps, auth.accountId, closed);
    },

    /** Ends every session but the caller's; returns how many ended. */
    async logoutOthers(auth: AuthContext): Promise<number> {
      const closed = await closeSessions(database.db, auth.accountId, { allExcept: auth.sessionId }, 'logout_all');
      await announceClosed(deps, auth.accountId, closed);
      return closed.length;
    },

    /** Ends one open session of the caller's account; anything else is 404. */
    async revoke(auth: AuthContext, sessionId: string): Promise<void> {
      const closed = await closeSessions(
        database.db,
        auth.accountId,
        { only: sessionId, now: deps.clock.now() },
        'revoked',
      );
      if (!closed.length) throw errors.notFound('No such open session of yours.');
      await announceClosed(deps, auth.accountId, closed);
    },

    /** A single-use ticket that opens `/v1/ws` for the caller's session (DESIGN G5c). */
    async wsTicket(auth: AuthContext): Promise<{ ticket: string; expires_in: number }> {
      const ttl = deps.config.WS_TICKET_TTL_S;
      const ticket = await issueWsTicket(deps.redis, { accountId: auth.accountId, sessionId: auth.sessionId }, ttl);
      return { ticket, expires_in: ttl };
    },
  };
}

export type SessionControl = ReturnType<typeof createSessionControl>;
