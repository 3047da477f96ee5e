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

const DAY_MS = 86_400_000;

/**
 * Opens a session at `now` (the clock its tokens are signed with); the refresh token exists only
 * in the answer, the table keeps its hash.
 */
export async function openSession(
  db: DbOrTx,
  config: Pick<WriteDeps['config'], 'SESSION_IDLE_TTL_D' | 'SESSION_ABSOLUTE_TTL_D'>,
  accountId: string,
  meta: ClientMeta,
  now: Date,
): Promise<{ sessionId: string; refreshToken: string }> {
  const refreshToken = randomToken();
  const after = (days: number) => new Date(now.getTime() + days * DAY_MS);
  const [row] = await db
    .insert(sessions)
    .values({
      accountId,
      refreshTokenHash: hashToken(refreshToken),
      ip: meta.ip,
      userAgent: meta.userAgent,
      createdAt: now,
      lastUsedAt: now,
      expiresAt: after(config.SESSION_IDLE_TTL_D),
      absoluteExpiresAt: after(config.SESSION_ABSOLUTE_TTL_D),
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

// The live session of a refresh token at `$2` (now by the clock), and its account's email for the checks.
const FIND_BY_REFRESH_TOKEN = `
select s.id, s.account_id, a.email
  from sessions s
  join accounts a on a.id = s.account_id
 where s.refresh_token_hash = $1 and s.closed_at is null and s.expires_at > $2::timestamptz
   and a.status <> 'deleted'`;

// Sliding expiry: idle timeout from now (`$5`), never past the absolute end of the session. Run
// only once every check has passed, so a refused refresh moves nothing; the conditions are
// repeated so that a session closed meanwhile is not revived.
const SLIDE = `
update sessions s
   set last_used_at = $5, ip = $2, user_agent = coalesce($3, s.user_agent),
       expires_at = least($5::timestamptz + make_interval(days => $4), s.absolute_expires_at)
 where s.id = $1 and s.closed_at is null and s.expires_at > $5::timestamptz
returning s.id`;

/** The session of a refresh token open and unexpired at `now`, with its account's email; null when none. */
export async function findSessionByRefreshToken(
  database: WriteDeps['database'],
  refreshToken: string,
  now: Date,
): Promise<{ id: string; account_id: string; email: string | null } | null> {
  const { rows } = await database.pool.query<{ id: string; account_id: string; email: string | null }>(
    FIND_BY_REFRESH_TOKEN,
    [hashToken(refreshToken), now],
  );
  return rows[0] ?? null;
}

/** Moves the session's idle expiry forward from `now`; false when it was closed or expired meanwhile. */
export async function slideSession(
  database: WriteDeps['database'],
  sessionId: string,
  meta: ClientMeta,
  idleDays: number,
  now: Date,
): Promise<boolean> {
  const slid = await database.pool.query(SLIDE, [sessionId, meta.ip, meta.userAgent, idleDays, now]);
  return !!slid.rowCount;
}

/** Which sessions to close: one that is still unexpired at `now`, all but one, or all. */
export type CloseScope = { only: string; now: Date } | { allExcept: string } | 'all';

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
        ? and(eq(sessions.id, scope.only), gt(sessions.expiresAt, scope.now))
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
  { redis, config, log, clock }: Pick<WriteDeps, 'redis' | 'config' | 'log' | 'clock'>,
  accountId: string,
  sessionIds: string[],
): Promise<void> {
  await Promise.all(
    sessionIds.map((id) =>
      publishToAccount(
        redis,
        config.REDIS_KEY_PREFIX,
        accountId,
        'session.closed',
        { session_id: id },
        clock.now(),
      ).catch((err) => log.warn({ err }, 'session.closed not published')),
    ),
  );
}
