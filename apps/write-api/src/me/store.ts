import type { z } from 'zod';
import { and, eq, gt, isNull, or, sql } from 'drizzle-orm';
import { schema, type Db, type DbOrTx } from '@guest/db';
import type { Config } from '@guest/config';
import type { FileStorage } from '@guest/storage';
import { errors } from '@guest/http-kit';
import { avatarUrl, publicNameOf } from '../media/urls.ts';
import type { ProfileResponse, ProfileUpdate } from './schemas.ts';
import { normalizeName, normalizeProfileText, RuleProblems, type ProfileTextChanges } from './rules.ts';

const {
  accounts,
  accountRestrictions,
  emailTokens,
  profiles,
  mediaFiles,
  currencies,
  devices,
  mediaTickets,
  favorites,
  notifications,
  assistantMessages,
} = schema;

type Profile = z.infer<typeof ProfileResponse>;

/** Creates the profile row on first use; every later write is an update of it. */
export async function ensureProfile(db: DbOrTx, accountId: string): Promise<void> {
  await db.insert(profiles).values({ accountId }).onConflictDoNothing();
}

/** Currencies a profile may choose: the catalog's, or the configured list while the catalog has none. */
export async function knownCurrencies(db: Db, config: Config): Promise<Set<string>> {
  const rows = await db.select({ code: currencies.code }).from(currencies);
  return new Set(rows.length ? rows.map((r) => r.code) : config.CURRENCIES);
}

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/**
 * DESIGN G3b, as the account is now: `deleted` once erased; `pending_deletion` from a deletion
 * request until it is confirmed or its link lapses (an unused, unexpired deletion token);
 * `restricted` while any restriction is active; else `active`. Derived on read, so it can never
 * lag behind a link that expired or a restriction that ended.
 */
async function statusOf(
  db: Db,
  account: typeof accounts.$inferSelect,
  restricted: boolean,
): Promise<Profile['status']> {
  if (account.status === 'deleted') return 'deleted';
  const [pending] = await db
    .select({ id: emailTokens.id })
    .from(emailTokens)
    .where(
      and(
        eq(emailTokens.accountId, account.id),
        eq(emailTokens.purpose, 'delete_account'),
        isNull(emailTokens.usedAt),
        gt(emailTokens.expiresAt, sql`now()`),
      ),
    )
    .limit(1);
  if (pending) return 'pending_deletion';
  return restricted ? 'restricted' : 'active';
}

export async function loadProfile(db: Db, accountId: string, base: string): Promise<Profile> {
  const [row] = await db
    .select({ a: accounts, p: profiles, avatarKey: mediaFiles.storageKey })
    .from(accounts)
    .leftJoin(profiles, eq(profiles.accountId, accounts.id))
    .leftJoin(mediaFiles, and(eq(mediaFiles.id, profiles.avatarMediaId), isNull(mediaFiles.deletedAt)))
    .where(eq(accounts.id, accountId));
  if (!row) throw errors.notFound();
  const restrictions = await db
    .select()
    .from(accountRestrictions)
    .where(
      and(
        eq(accountRestrictions.accountId, accountId),
        isNull(accountRestrictions.liftedAt),
        or(isNull(accountRestrictions.until), gt(accountRestrictions.until, sql`now()`)),
      ),
    )
    .orderBy(accountRestrictions.createdAt);
  const { a, p } = row;
  const avatarName = row.avatarKey ? publicNameOf(row.avatarKey) : null;
  return {
    id: a.id,
    email: a.email,
    email_confirmed: a.emailConfirmedAt !== null,
    status: await statusOf(db, a, restrictions.length > 0),
    first_name: a.firstName,
    last_name: a.lastName,
    avatar_url: avatarName ? avatarUrl(base, avatarName) : null,
    birth_date: p?.birthDate ?? null,
    gender: (p?.gender as Profile['gender']) ?? null,
    phone: p?.phone ?? null,
    phone_confirmed: p?.phoneConfirmedAt != null,
    citizenship: p?.citizenship ?? null,
    residence_country: p?.residenceCountry ?? null,
    billing_address: p?.billingAddress ?? null,
    emergency_contact: p?.emergencyContact ?? null,
    language: p?.language ?? null,
    currency: p?.currency ?? null,
    verification_status: p?.verificationStatus ?? 'none',
    verified_at: iso(p?.verifiedAt ?? null),
    notify_push: p?.pushEnabled ?? true,
    notify_email: p?.emailEnabled ?? true,
    notify_marketing: a.marketingOptIn,
    bookings_count: p?.bookingsCount ?? 0,
    rating_avg: p?.ratingAvg ?? null,
    rating_count: p?.ratingCount ?? 0,
    created_at: a.createdAt.toISOString(),
    restrictions: restrictions.map((r) => ({
      kind: r.kind,
      reason: r.reason,
      until: iso(r.until),
      created_at: r.createdAt.toISOString(),
    })),
  };
}

/**
 * Applies a PATCH: only the fields present change. Names and the marketing consent live on the
 * account; everything else on the profile row. A changed phone number is no longer confirmed.
 */
export async function updateProfile(
  db: Db,
  accountId: string,
  body: ProfileUpdate,
  ctx: { today: string; config: Config },
): Promise<void> {
  const needsCurrencies = body.currency !== undefined && body.currency !== null && body.currency.trim() !== '';
  // Every broken rule is reported at once (issue 10 point 3), names included.
  const problems = new RuleProblems();
  const accountSet: Partial<typeof accounts.$inferInsert> = {};
  const { first_name, last_name } = body;
  if (first_name !== undefined) problems.check(() => (accountSet.firstName = normalizeName('first_name', first_name)));
  if (last_name !== undefined) problems.check(() => (accountSet.lastName = normalizeName('last_name', last_name)));
  const text: ProfileTextChanges = normalizeProfileText(
    body,
    { today: ctx.today, knownCurrencies: needsCurrencies ? await knownCurrencies(db, ctx.config) : new Set() },
    problems,
  );
  problems.throwIfAny();
  if (body.notify_marketing != null) accountSet.marketingOptIn = body.notify_marketing;

  const profileSet: Partial<typeof profiles.$inferInsert> = { ...text };
  if (body.notify_push != null) profileSet.pushEnabled = body.notify_push;
  if (body.notify_email != null) profileSet.emailEnabled = body.notify_email;

  await db.transaction(async (dbTx) => {
    if (Object.keys(accountSet).length) {
      await dbTx
        .update(accounts)
        .set({ ...accountSet, updatedAt: sql`now()` })
        .where(eq(accounts.id, accountId));
    }
    if (Object.keys(profileSet).length) {
      await ensureProfile(dbTx, accountId);
      const phoneChange =
        text.phone !== undefined
          ? {
              phoneConfirmedAt: sql`case when ${profiles.phone} is not distinct from ${text.phone} then ${profiles.phoneConfirmedAt} end`,
            }
          : {};
      await dbTx
        .update(profiles)
        .set({ ...profileSet, ...phoneChange, updatedAt: sql`now()` })
        .where(eq(profiles.accountId, accountId));
    }
  });
}

/**
 * Account deletion: erases the personal data of the profile (phone, birth date, gender, addresses,
 * countries, language, currency, preferences, saved filters), the devices, favorites, notifications
 * and assistant conversation, and the account's files, inside the deletion's transaction.
 * Payments stay (the law keeps them, tied to an id that no longer names anyone), and so do
 * messages in conversations with hosts, which belong to both sides. Stored file bytes are removed too; should the transaction roll back after that,
 * the file rows would point at nothing and answer 404, which loses nothing the person wanted kept.
 */
export async function erasePersonalProfileData(dbTx: DbOrTx, accountId: string, storage: FileStorage): Promise<void> {
  await dbTx
    .update(profiles)
    .set({
      birthDate: null,
      gender: null,
      phone: null,
      phoneConfirmedAt: null,
      citizenship: null,
      residenceCountry: null,
      billingAddress: null,
      emergencyContact: null,
      language: null,
      currency: null,
      avatarMediaId: null,
      emailPrefs: {},
      pushPrefs: {},
      searchFilters: {},
      updatedAt: sql`now()`,
    })
    .where(eq(profiles.accountId, accountId));
  await dbTx.delete(devices).where(eq(devices.accountId, accountId));
  await dbTx.delete(favorites).where(eq(favorites.accountId, accountId));
  await dbTx.delete(notifications).where(eq(notifications.accountId, accountId));
  await dbTx.delete(assistantMessages).where(eq(assistantMessages.accountId, accountId));
  const files = await dbTx
    .update(mediaFiles)
    .set({ deletedAt: sql`now()` })
    .where(and(eq(mediaFiles.ownerAccountId, accountId), isNull(mediaFiles.deletedAt)))
    .returning({ id: mediaFiles.id, key: mediaFiles.storageKey });
  for (const f of files) {
    await dbTx.delete(mediaTickets).where(eq(mediaTickets.mediaId, f.id));
    await storage.delete(f.key);
  }
}
