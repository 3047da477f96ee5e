import type { Runtime } from '@guest/runtime';
import { RESTRICTION_KINDS, type ACCOUNT_STATUSES } from '@guest/db/schema';
import { InvalidTokenError, verifyAccessToken } from './tokens.ts';

/** What a restriction takes from an account (its table's enum). */
export { RESTRICTION_KINDS };
export type RestrictionKind = (typeof RESTRICTION_KINDS)[number];
export type AccountStatus = (typeof ACCOUNT_STATUSES)[number];

/** Who is calling, as established by the auth guard (`req.auth`). */
export interface AuthContext {
  accountId: string;
  sessionId: string;
  emailConfirmed: boolean;
  status: AccountStatus;
  /** Kinds of the account's restrictions active now. */
  restrictions: RestrictionKind[];
  /** When the access token lapses: the socket closes then unless it is renewed in-band. */
  expiresAt: Date;
}

export type AuthFailure = 'missing' | 'invalid' | 'expired' | 'session_closed' | 'login_restricted';

export class AuthError extends Error {
  constructor(readonly reason: AuthFailure) {
    super(`not authenticated: ${reason}`);
    this.name = 'AuthError';
  }
}

// One round trip: the session must be open and unexpired, the account not deleted, and the
// active restrictions come along, so guards never need a second query. `$3` is now by the
// process's clock, the one the tokens are signed and checked with.
const SESSION_QUERY = `
select a.status, a.email_confirmed_at is not null as email_confirmed,
       s.last_used_at < $3::timestamptz - interval '60 seconds' as stale,
       coalesce((select array_agg(distinct r.kind) from account_restrictions r
                  where r.account_id = a.id and r.lifted_at is null
                    and (r.until is null or r.until > $3::timestamptz)), '{}') as restrictions
  from sessions s join accounts a on a.id = s.account_id
 where s.id = $1 and s.account_id = $2 and s.closed_at is null and s.expires_at > $3::timestamptz
   and a.status <> 'deleted'`;

type SessionRow = { status: AccountStatus; email_confirmed: boolean; stale: boolean; restrictions: RestrictionKind[] };

/**
 * A route's own read, made in the same round trip as the session check (`requireAuth({ alongside })`):
 * on the hottest signed-in read (`GET /v1/me`) a second statement was a fifth of the process's CPU
 * (a write and a wake-up of Postgres per statement). `text` is one select that names the account
 * id `$2`; none of its columns may start with `auth_`. Its row is there only when the session
 * check passed: it never answers for a closed session.
 */
export interface AlongsideQuery {
  /** Name of the prepared statement (planned once per connection); unique per text. */
  name: string;
  text: string;
}

const withAlongside = (q: AlongsideQuery) => `
select st.status as auth_status, st.email_confirmed as auth_email_confirmed, st.stale as auth_stale,
       st.restrictions as auth_restrictions, c.*
  from (${SESSION_QUERY}) st
  left join lateral (${q.text}) c on true`;
const alongsideTexts = new Map<string, string>();

export type SessionState = Omit<AuthContext, 'accountId' | 'sessionId' | 'expiresAt'> & {
  stale: boolean;
  /** The row of the `alongside` query, when one was asked for. */
  alongside?: Record<string, unknown>;
};

/** The state of an open session of this account, or null when it is closed, expired or deleted. */
export async function sessionState(
  runtime: Pick<Runtime, 'database' | 'clock'>,
  accountId: string,
  sessionId: string,
  alongside?: AlongsideQuery,
): Promise<SessionState | null> {
  if (!alongside) {
    const { rows } = await runtime.database.pool.query<SessionRow>({
      name: 'auth-session',
      text: SESSION_QUERY,
      values: [sessionId, accountId, runtime.clock.now()],
    });
    const row = rows[0];
    if (!row) return null;
    return {
      status: row.status,
      emailConfirmed: row.email_confirmed,
      restrictions: row.restrictions,
      stale: row.stale,
    };
  }
  let text = alongsideTexts.get(alongside.name);
  if (!text) alongsideTexts.set(alongside.name, (text = withAlongside(alongside)));
  const { rows } = await runtime.database.pool.query<Record<string, unknown>>({
    name: `auth-session+${alongside.name}`,
    text,
    values: [sessionId, accountId, runtime.clock.now()],
  });
  const row = rows[0];
  if (!row) return null;
  const { auth_status, auth_email_confirmed, auth_stale, auth_restrictions, ...rest } = row;
  return {
    status: auth_status as AccountStatus,
    emailConfirmed: auth_email_confirmed as boolean,
    restrictions: auth_restrictions as RestrictionKind[],
    stale: auth_stale as boolean,
    alongside: rest,
  };
}

/**
/**
 * Verifies an access token of the guest audience and that its session is still open: a token of
 * a closed session fails at once, not when it expires (spec 5.4, 5.6), and so does one of an
 * account with an active `login` restriction (DESIGN G5b). For HTTP guards and for the realtime
 * gateway (`access_token` query parameter). A use moves the session's `last_used_at` (and its
 * address, when known), at most once a minute.
 */
export async function authenticate(
  runtime: Pick<Runtime, 'config' | 'database' | 'clock'>,
  token: string,
  seenFrom?: { ip?: string },
  opts: { allowLoginRestricted?: boolean; alongside?: AlongsideQuery } = {},
): Promise<AuthContext & { alongside?: Record<string, unknown> }> {
  let claims;
  try {
    claims = await verifyAccessToken(runtime.config, token, runtime.clock.now());
  } catch (err) {
    throw new AuthError(err instanceof InvalidTokenError ? err.reason : 'invalid');
  }
  const state = await sessionState(runtime, claims.accountId, claims.sessionId, opts.alongside);
  if (!state) throw new AuthError('session_closed');
  // The restriction is read on every call, so it bites from the request after it is written,
  // not when the access token expires; only routes that end or list sessions stay open to it.
  if (state.restrictions.includes('login') && !opts.allowLoginRestricted) throw new AuthError('login_restricted');
  if (state.stale) {
    // "Last used" is kept to the minute for the sessions list; awaited, so the next request
    // (a sessions list right after) sees it, but a failed update must not fail the call.
    await runtime.database.pool
      .query(
        `update sessions set last_used_at = $3, ip = coalesce($2, ip)
          where id = $1 and closed_at is null and last_used_at < $3::timestamptz - interval '60 seconds'`,
        [claims.sessionId, seenFrom?.ip ?? null, runtime.clock.now()],
      )
      .catch(() => {});
  }
  return {
    accountId: claims.accountId,
    sessionId: claims.sessionId,
    emailConfirmed: state.emailConfirmed,
    status: state.status,
    restrictions: state.restrictions,
    expiresAt: claims.expiresAt,
    ...(state.alongside ? { alongside: state.alongside } : {}),
  };
}
