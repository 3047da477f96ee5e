import type { z } from 'zod';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { schema, type Database, type Db, type DbOrTx } from '@guest/db';
import type { Config } from '@guest/config';
import type { FileStorage } from '@guest/storage';
import { errors } from '@guest/http-kit';
import type { AlongsideQuery } from '@guest/auth';
import { avatarUrl, publicNameOf } from '../media/urls.ts';
import type { ProfileResponse, ProfileUpdate } from './schemas.ts';
import { normalizeName, normalizeProfileText, RuleProblems, type ProfileTextChanges } from './rules.ts';

const {
  accounts,
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

// The whole profile in one round trip (a named, prepared statement: planned once per connection),
// for `GET /v1/me`, the hottest signed-in read: account, profile row, avatar, the pending deletion
// and the active restrictions (oldest first; `id` breaks ties so the four arrays line up).
const profileQuery = (accountIdParam: string) => `
select a.id, a.email, a.email_confirmed_at is not null as email_confirmed, a.status, a.first_name, a.last_name,
       a.marketing_opt_in, a.created_at, m.storage_key as avatar_key,
       p.birth_date, p.gender, p.phone, p.phone_confirmed_at is not null as phone_confirmed, p.citizenship,
       p.residence_country, p.billing_address, p.emergency_contact, p.language, p.currency,
       p.verification_status, p.verified_at, p.push_enabled, p.email_enabled, p.bookings_count, p.rating_avg,
       p.rating_count,
       exists(select 1 from email_tokens t
               where t.account_id = a.id and t.purpose = 'delete_account' and t.used_at is null
                 and t.expires_at > now()) as pending_deletion,
       r.kinds, r.reasons, r.untils, r.created
  from accounts a
  left join profiles p on p.account_id = a.id
  left join media_files m on m.id = p.avatar_media_id and m.deleted_at is null
  left join lateral (
        select array_agg(x.kind order by x.created_at, x.id) as kinds,
               array_agg(x.reason order by x.created_at, x.id) as reasons,
               array_agg(x.until order by x.created_at, x.id) as untils,
               array_agg(x.created_at order by x.created_at, x.id) as created
          from account_restrictions x
         where x.account_id = a.id and x.lifted_at is null and (x.until is null or x.until > now())) r on true
 where a.id = ${accountIdParam}`;
const PROFILE_QUERY = profileQuery('$1');

/**
 * `GET /v1/me` reads the profile in the same round trip as its session check (`requireAuth`'s
 * `alongside`): one statement per request instead of two.
 */
export const PROFILE_ALONGSIDE: AlongsideQuery = { name: 'me-profile', text: profileQuery('$2') };

interface ProfileRow {
  id: string;
  email: string | null;
  email_confirmed: boolean;
  status: (typeof accounts.$inferSelect)['status'];
  first_name: string;
  last_name: string;
  marketing_opt_in: boolean;
  created_at: Date;
  avatar_key: string | null;
  birth_date: string | null;
  gender: string | null;
  phone: string | null;
  phone_confirmed: boolean;
  citizenship: string | null;
  residence_country: string | null;
  billing_address: string | null;
  emergency_contact: string | null;
  language: string | null;
  currency: string | null;
  verification_status: Profile['verification_status'] | null;
  verified_at: Date | null;
  push_enabled: boolean | null;
  email_enabled: boolean | null;
  bookings_count: number | null;
  rating_avg: number | null;
  rating_count: number | null;
  pending_deletion: boolean;
  kinds: Array<Profile['restrictions'][number]['kind']> | null;
  reasons: Array<string | null> | null;
  untils: Array<Date | null> | null;
  created: Date[] | null;
}

/**
 * DESIGN G3b, as the account is now: `deleted` once erased; `pending_deletion` from a deletion
 * request until it is confirmed or its link lapses (an unused, unexpired deletion token);
 * `restricted` while any restriction is active; else `active`. Derived on read, so it can never
 * lag behind a link that expired or a restriction that ended.
 */
function statusOf(row: ProfileRow): Profile['status'] {
  if (row.status === 'deleted') return 'deleted';
  if (row.pending_deletion) return 'pending_deletion';
  return row.kinds?.length ? 'restricted' : 'active';
}

export async function loadProfile(database: Database, accountId: string, base: string): Promise<Profile> {
  const { rows } = await database.pool.query<ProfileRow>({
    name: 'me-profile',
    text: PROFILE_QUERY,
    values: [accountId],
  });
  const row = rows[0];
  if (!row) throw errors.notFound();
  return profileOf(row, base);
}

/** The profile from the row of `PROFILE_ALONGSIDE`, read by the route's guard. */
export function profileFromAlongside(row: Record<string, unknown>, base: string): Profile {
  // A left join: no account row would leave every column null (the session check rules that out).
  if (row.id == null) throw errors.notFound();
  return profileOf(row as unknown as ProfileRow, base);
}

function profileOf(row: ProfileRow, base: string): Profile {
  const avatarName = row.avatar_key ? publicNameOf(row.avatar_key) : null;
  const kinds = row.kinds ?? [];
  return {
    id: row.id,
    email: row.email,
    email_confirmed: row.email_confirmed,
    status: statusOf(row),
    first_name: row.first_name,
    last_name: row.last_name,
    avatar_url: avatarName ? avatarUrl(base, avatarName) : null,
    birth_date: row.birth_date,
    gender: row.gender as Profile['gender'],
    phone: row.phone,
    phone_confirmed: row.phone_confirmed,
    citizenship: row.citizenship,
    residence_country: row.residence_country,
    billing_address: row.billing_address,
    emergency_contact: row.emergency_contact,
    language: row.language,
    currency: row.currency,
    verification_status: row.verification_status ?? 'none',
    verified_at: iso(row.verified_at),
    notify_push: row.push_enabled ?? true,
    notify_email: row.email_enabled ?? true,
    notify_marketing: row.marketing_opt_in,
    bookings_count: row.bookings_count ?? 0,
    rating_avg: row.rating_avg,
    rating_count: row.rating_count ?? 0,
    created_at: row.created_at.toISOString(),
    restrictions: kinds.map((kind, i) => ({
      kind,
      reason: row.reasons![i] ?? null,
      until: iso(row.untils![i] ?? null),
      created_at: row.created![i]!.toISOString(),
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
