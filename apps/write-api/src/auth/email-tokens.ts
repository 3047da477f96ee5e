import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { schema, type Db, type DbTx } from '@guest/db';
import { errors } from '@guest/http-kit';
import { hashToken, randomToken } from '@guest/auth';

const { emailTokens } = schema;
export type EmailTokenPurpose = (typeof schema.EMAIL_TOKEN_PURPOSES)[number];

/** Issues a single-use token for an emailed link; earlier unused ones of the purpose stop working. */
export async function issueEmailToken(
  dbTx: DbTx,
  accountId: string,
  purpose: EmailTokenPurpose,
  ttlMinutes: number,
): Promise<string> {
  await dbTx
    .update(emailTokens)
    .set({ usedAt: sql`now()` })
    .where(and(eq(emailTokens.accountId, accountId), eq(emailTokens.purpose, purpose), isNull(emailTokens.usedAt)));
  const token = randomToken();
  await dbTx.insert(emailTokens).values({
    accountId,
    purpose,
    tokenHash: hashToken(token),
    expiresAt: sql`now() + make_interval(mins => ${ttlMinutes})`,
  });
  return token;
}

const live = (token: string, purpose: EmailTokenPurpose) =>
  and(
    eq(emailTokens.tokenHash, hashToken(token)),
    eq(emailTokens.purpose, purpose),
    isNull(emailTokens.usedAt),
    gt(emailTokens.expiresAt, sql`now()`),
  );

export const invalidToken = () =>
  errors.validation('token', 'This link is invalid, expired or already used.', { reason: 'invalid_or_expired' });

/** The account a live token belongs to, without using it up (to check a request first). */
export async function peekEmailToken(db: Db, token: string, purpose: EmailTokenPurpose): Promise<string | null> {
  const [row] = await db.select({ accountId: emailTokens.accountId }).from(emailTokens).where(live(token, purpose));
  return row?.accountId ?? null;
}

/** Uses a token up atomically: of two concurrent uses, one wins. Throws 400 when not live. */
export async function consumeEmailToken(dbTx: DbTx, token: string, purpose: EmailTokenPurpose): Promise<string> {
  const [row] = await dbTx
    .update(emailTokens)
    .set({ usedAt: sql`now()` })
    .where(live(token, purpose))
    .returning({ accountId: emailTokens.accountId });
  if (!row) throw invalidToken();
  return row.accountId;
}
