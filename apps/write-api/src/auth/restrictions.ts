import { and, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import { schema, type Db } from '@guest/db';
import type { RestrictionKind } from '@guest/auth';
import { publishToAccount } from '@guest/realtime-bus';
import type { WriteDeps } from '../deps.ts';
import { announceClosed, closeSessions } from './sessions.ts';

const { accountRestrictions } = schema;

/** Which of `kinds` are restricted for the account right now. */
export async function activeRestrictions(
  db: Db,
  accountId: string,
  kinds: RestrictionKind[],
): Promise<RestrictionKind[]> {
  const rows = await db
    .selectDistinct({ kind: accountRestrictions.kind })
    .from(accountRestrictions)
    .where(
      and(
        eq(accountRestrictions.accountId, accountId),
        inArray(accountRestrictions.kind, kinds),
        isNull(accountRestrictions.liftedAt),
        or(isNull(accountRestrictions.until), gt(accountRestrictions.until, sql`now()`)),
      ),
    );
  return rows.map((r) => r.kind);
}

export interface NewRestriction {
  accountId: string;
  kind: RestrictionKind;
  reason?: string | null;
  until?: Date | null;
}

/**
 * Restricts an account, acting at once on what is open (issue 14 point 6): the account's sockets
 * are told (`account.restricted`, DESIGN G6a); a `login` restriction also closes every open
 * session, whose sockets then get `session.closed` and are dropped by the gateway. Signed-in
 * calls see any restriction from the next request on, however it was written (the session
 * check reads them each time); this is the way that also reaches the sockets.
 */
export async function restrictAccount(
  deps: Pick<WriteDeps, 'database' | 'redis' | 'config' | 'log' | 'clock'>,
  input: NewRestriction,
): Promise<{ id: string; closedSessions: string[] }> {
  const { id, closed } = await deps.database.db.transaction(async (dbTx) => {
    const [row] = await dbTx
      .insert(accountRestrictions)
      .values({
        accountId: input.accountId,
        kind: input.kind,
        reason: input.reason ?? null,
        until: input.until ?? null,
      })
      .returning({ id: accountRestrictions.id, createdAt: accountRestrictions.createdAt });
    const closedIds = input.kind === 'login' ? await closeSessions(dbTx, input.accountId, 'all', 'restricted') : [];
    return { id: row!.id, closed: closedIds };
  });
  await publishToAccount(
    deps.redis,
    deps.config.REDIS_KEY_PREFIX,
    input.accountId,
    'account.restricted',
    { kind: input.kind, reason: input.reason ?? null, until: input.until?.toISOString() ?? null },
    deps.clock.now(),
  ).catch((err) => deps.log.warn({ err }, 'account.restricted not published'));
  await announceClosed(deps, input.accountId, closed);
  return { id, closedSessions: closed };
}
