import { and, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import { schema, type Db } from '@guest/db';
import type { RestrictionKind } from '@guest/auth';

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
