import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import type { z } from 'zod';
import { schema, type DbOrTx } from '@guest/db';
import { hashToken, randomToken, signAccessToken } from '@guest/auth';
import { publishToAccount } from '@guest/realtime-bus';
import type { WriteDeps } from '../deps.ts';
import type { TokenPairResponse } from './schemas.ts';

const { sessions } = schema;

export interface ClientMeta {
  /** The exact address, kept with the session and shown to its owner. */
  ip: string;
  /** The address as per-address limits count it (`req.addressKey`: an IPv6 client by its /64). */
  address: string;
  userAgent: string | null;
}

export type TokenPair = z.output<typeof TokenPairResponse>;

/** Opens a session; the refresh token exists only in the answer, the table keeps its hash. */
export async function openSession(
  db: DbOrTx,
  config: Pick<WriteDeps['config'], 'SESSION_IDLE_TTL_D' | 'SESSION_ABSOLUTE_TTL_D'>,
  accountId: string,
  meta: ClientMeta,
): Promise<{ sessionId: string; refreshToken: string }> {
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
  { config, clock }: Pick<WriteDeps, 'config' | 'clock'>,
  accountId: string,
  sessionId: string,
  refreshToken: string,
): Promise<TokenPair> {
  const accessToken = await signAccessToken(config, { accountId, sessionId }, clock.now());
  return {
    access_token: accessToken,
    refresh_token: refreshToken,
    token_type: 'Bearer',
    expires_in: config.ACCESS_TOKEN_TTL_S,
    session_id: sessionId,
  };
}

// The live session of a refresh token, and its account's email for the checks.
const FIND_BY_REFRESH_TOKEN = `
select s.id, s.account_id, a.email
  from sessions s
  join accounts a on a.id = s.account_id
 where s.refresh_token_hash = $1 and s.closed_at is null and s.expires_at > now()
   and a.status <> 'deleted'`;

// Sliding expiry: idle timeout from now, never past the absolute end of the session. Run only
// once every check has passed, so a refused refresh moves nothing; the conditions are repeated
// so that a session closed meanwhile is not revived.
const SLIDE = `
update sessions s
   set last_used_at = now(), ip = $2, user_agent = coalesce($3, s.user_agent),
       expires_at = least(now() + make_interval(days => $4), s.absolute_expires_at)
 where s.id = $1 and s.closed_at is null and s.expires_at > now()
returning s.id`;

/** The open, unexpired session of a refresh token, with its account's email; null when none. */
export async function findSessionByRefreshToken(
  database: WriteDeps['database'],
  refreshToken: string,
): Promise<{ id: string; account_id: string; email: string | null } | null> {
  const { rows } = await database.pool.query<{ id: string; account_id: string; email: string | null }>(
    FIND_BY_REFRESH_TOKEN,
    [hashToken(refreshToken)],
  );
  return rows[0] ?? null;
}

/** Moves the session's idle expiry forward; false when it was closed or expired meanwhile. */
export async function slideSession(
  database: WriteDeps['database'],
  sessionId: string,
  meta: ClientMeta,
  idleDays: number,
): Promise<boolean> {
  const slid = await database.pool.query(SLIDE, [sessionId, meta.ip, meta.userAgent, idleDays]);
  return !!slid.rowCount;
}

export type CloseScope = { only: string } | { allExcept: string } | 'all';

/** Closes open sessions of an account and returns the ids it closed. */
export async function closeSessions(
  db: DbOrTx,
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
export async function announceClosed(
  { redis, config, log }: Pick<WriteDeps, 'redis' | 'config' | 'log'>,
  accountId: string,
  sessionIds: string[],
): Promise<void> {
  await Promise.all(
    sessionIds.map((id) =>
      publishToAccount(redis, config.REDIS_KEY_PREFIX, accountId, 'session.closed', { session_id: id }).catch((err) =>
        log.warn({ err }, 'session.closed not published'),
      ),
    ),
  );
}
