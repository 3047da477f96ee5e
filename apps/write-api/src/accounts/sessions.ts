import type { FastifyInstance, FastifyRequest } from 'fastify';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { schema, type Db } from '@guest/db';
import type { Tx } from '@guest/jobs';
import { hashToken, randomToken, signAccessToken } from '@guest/auth';
import { publishToAccount } from '@guest/realtime/bus';
import type { z } from 'zod';
import type { TokenPairResponse } from './schemas.ts';

const { sessions } = schema;

export function clientMeta(req: FastifyRequest): { ip: string; userAgent: string | null } {
  const ua = req.headers['user-agent'];
  return { ip: req.ip, userAgent: typeof ua === 'string' && ua ? ua.slice(0, 512) : null };
}

/** Opens a session; the refresh token exists only in the answer, the table keeps its hash. */
export async function openSession(
  db: Db | Tx,
  app: FastifyInstance,
  accountId: string,
  meta: { ip: string; userAgent: string | null },
): Promise<{ sessionId: string; refreshToken: string }> {
  const { config } = app.runtime;
  const refreshToken = randomToken();
  const [row] = await db
    .insert(sessions)
    .values({
      accountId,
      refreshTokenHash: hashToken(refreshToken),
      ip: meta.ip,
      userAgent: meta.userAgent,
      expiresAt: sql`now() + make_interval(days => ${config.SESSION_IDLE_TTL_D})`,
      absoluteExpiresAt: sql`now() + make_interval(days => ${config.SESSION_ABSOLUTE_TTL_D})`,
    })
    .returning({ id: sessions.id });
  return { sessionId: row!.id, refreshToken };
}

export async function tokenPair(
  app: FastifyInstance,
  accountId: string,
  sessionId: string,
  refreshToken: string,
): Promise<z.output<typeof TokenPairResponse>> {
  const { config, clock } = app.runtime;
  const now = clock.now();
  const claims = { accountId, sessionId };
  const [write, read, socket] = await Promise.all([
    signAccessToken(config, 'write', claims, now),
    signAccessToken(config, 'read', claims, now),
    signAccessToken(config, 'socket', claims, now),
  ]);
  return {
    access_token: write,
    refresh_token: refreshToken,
    token_type: 'Bearer',
    expires_in: config.ACCESS_TOKEN_TTL_S,
    session_id: sessionId,
    read_access_token: read,
    socket_access_token: socket,
  };
}

export type CloseScope = { only: string } | { allExcept: string } | 'all';

/** Closes open sessions of an account and returns the ids it closed. */
export async function closeSessions(
  db: Db | Tx,
  accountId: string,
  scope: CloseScope,
  reason: string,
): Promise<string[]> {
  const which =
    scope === 'all'
      ? undefined
      : 'only' in scope
        ? and(eq(sessions.id, scope.only), gt(sessions.expiresAt, sql`now()`))
        : ne(sessions.id, scope.allExcept);
  const rows = await db
    .update(sessions)
    .set({ closedAt: sql`now()`, closedReason: reason })
    .where(and(eq(sessions.accountId, accountId), isNull(sessions.closedAt), which))
    .returning({ id: sessions.id });
  return rows.map((r) => r.id);
}

/**
 * Tells the account's open sockets that these sessions ended (DESIGN G6a `session.closed`), so
 * the gateway drops them at once. After commit; a lost message only delays that to the
 * socket's next recheck, so failures are logged, not raised.
 */
export async function announceClosed(app: FastifyInstance, accountId: string, sessionIds: string[]): Promise<void> {
  const { redis, config } = app.runtime;
  await Promise.all(
    sessionIds.map((id) =>
      publishToAccount(redis, config.REDIS_KEY_PREFIX, accountId, 'session.closed', { session_id: id }).catch((err) =>
        app.log.warn({ err }, 'session.closed not published'),
      ),
    ),
  );
}
