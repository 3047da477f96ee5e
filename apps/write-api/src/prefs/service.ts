import { eq, sql } from 'drizzle-orm';
import { schema, type Db } from '@guest/db';
import { AppError } from '@guest/http-kit';
import type { WriteDeps } from '../deps.ts';
import { prefGroups, unknownPrefCodes, type PrefChannel, type PrefGroupView } from './registry.ts';
import { ensureProfile } from '../me/store.ts';

const { accounts, profiles } = schema;

export interface PrefsView {
  enabled: boolean;
  groups: PrefGroupView[];
}

export interface PrefsUpdate {
  prefs?: Record<string, boolean>;
  enabled?: boolean | null;
}

async function readPrefs(db: Db, accountId: string, channel: PrefChannel): Promise<PrefsView> {
  const [row] = await db
    .select({ optIn: accounts.marketingOptIn, p: profiles })
    .from(accounts)
    .leftJoin(profiles, eq(profiles.accountId, accounts.id))
    .where(eq(accounts.id, accountId));
  const overrides = (channel === 'email' ? row?.p?.emailPrefs : row?.p?.pushPrefs) ?? {};
  const enabled = (channel === 'email' ? row?.p?.emailEnabled : row?.p?.pushEnabled) ?? true;
  return { enabled, groups: prefGroups(channel, overrides, row?.optIn ?? false) };
}

/**
 * Stores the named codes (all or nothing: one unknown code refuses the whole update with
 * `email_pref_unknown` / `push_pref_unknown` naming it) and, for push, the master switch.
 */
async function writePrefs(db: Db, accountId: string, channel: PrefChannel, update: PrefsUpdate): Promise<void> {
  const prefs = update.prefs ?? {};
  const unknown = unknownPrefCodes(channel, prefs);
  if (unknown.length) {
    throw new AppError(
      channel === 'email' ? 'email_pref_unknown' : 'push_pref_unknown',
      `Unknown ${channel} preference code: ${unknown.join(', ')}.`,
      { field: `prefs.${unknown[0]}`, codes: unknown },
    );
  }
  const column = channel === 'email' ? profiles.emailPrefs : profiles.pushPrefs;
  const set: Record<string, unknown> = { updatedAt: sql`now()` };
  if (Object.keys(prefs).length) {
    set[channel === 'email' ? 'emailPrefs' : 'pushPrefs'] = sql`${column} || ${JSON.stringify(prefs)}::jsonb`;
  }
  if (channel === 'push' && update.enabled != null) set.pushEnabled = update.enabled;
  await ensureProfile(db, accountId);
  await db.update(profiles).set(set).where(eq(profiles.accountId, accountId));
}

/** Email and push preferences (`/v1/me/email-prefs`, `/v1/me/push-prefs`). */
export function createPrefsService({ database }: Pick<WriteDeps, 'database'>) {
  const { db } = database;
  return {
    /** The channel's preferences; codes never touched show the registry defaults. */
    get: (accountId: string, channel: PrefChannel): Promise<PrefsView> => readPrefs(db, accountId, channel),

    /** Sets what `update` names and answers the preferences as they are now. */
    async update(accountId: string, channel: PrefChannel, update: PrefsUpdate): Promise<PrefsView> {
      await writePrefs(db, accountId, channel, update);
      return readPrefs(db, accountId, channel);
    },
  };
}

export type PrefsService = ReturnType<typeof createPrefsService>;
