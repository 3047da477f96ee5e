import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import { schema, type Db, type DbOrTx } from '@guest/db';
import type { FileStorage } from '@guest/storage';
import { errors } from '@guest/http-kit';
import type { ProcessedImage } from './image.ts';
import { publicNameOf } from './urls.ts';
import { ensureProfile } from '../me/store.ts';

const { mediaFiles, mediaTickets, profiles } = schema;

export type MediaFile = typeof mediaFiles.$inferSelect;

/** The right to read a file: its owner, while it is not deleted. The one place this is decided. */
export function mayRead(file: MediaFile | undefined, accountId: string | null): file is MediaFile {
  return !!file && !file.deletedAt && accountId !== null && file.ownerAccountId === accountId;
}

async function findFile(db: Db, mediaId: string): Promise<MediaFile | undefined> {
  const [row] = await db.select().from(mediaFiles).where(eq(mediaFiles.id, mediaId));
  return row;
}

/** Avatar changes of one account take turns, so two racing uploads cannot both stay live. */
async function lockProfile(dbTx: DbOrTx, accountId: string): Promise<void> {
  await ensureProfile(dbTx, accountId);
  await dbTx.execute(sql`select 1 from profiles where account_id = ${accountId} for update`);
}

/**
 * The public name of an avatar (issue 10 point 5): 64 hex digits, the file's random id (122
 * random bits: unguessable) followed by the first half of the SHA-256 of its bytes (content
 * addressed). A new upload is a new file with a new name, so a URL is immutable.
 */
export function avatarName(mediaId: string, data: Buffer): string {
  return `${mediaId.replace(/-/g, '')}${createHash('sha256').update(data).digest('hex').slice(0, 32)}`;
}

const NAME = /^([0-9a-f]{8})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{12})(?:[0-9a-f]{32})?$/;

/**
 * The live avatar of that public name, or undefined: the name must be exactly that of a file that
 * is an avatar and not deleted (a replaced or removed avatar is gone).
 */
export async function publicAvatar(db: Db, name: string): Promise<MediaFile | undefined> {
  const m = NAME.exec(name);
  if (!m) return undefined;
  const file = await findFile(db, m.slice(1, 6).join('-'));
  if (!file || file.deletedAt || file.purpose !== 'avatar') return undefined;
  return publicNameOf(file.storageKey) === name ? file : undefined;
}

/**
 * Stores a processed avatar as a new file and points the profile at it; the previous avatar is
 * marked deleted and its bytes removed after the commit. Returns the new avatar's public name: a
 * new upload always has a new one, so its URL never serves a stale cached picture.
 */
export async function replaceAvatar(
  db: Db,
  storage: FileStorage,
  accountId: string,
  image: ProcessedImage,
): Promise<string> {
  const id = randomUUID();
  const key = `avatars/${avatarName(id, image.data)}.jpg`;
  await storage.put(key, image.data);
  let oldKeys: string[];
  try {
    oldKeys = await db.transaction(async (dbTx) => {
      await lockProfile(dbTx, accountId);
      const old = await dbTx
        .update(mediaFiles)
        .set({ deletedAt: sql`now()` })
        .where(
          and(eq(mediaFiles.ownerAccountId, accountId), eq(mediaFiles.purpose, 'avatar'), isNull(mediaFiles.deletedAt)),
        )
        .returning({ key: mediaFiles.storageKey });
      await dbTx.insert(mediaFiles).values({
        id,
        ownerAccountId: accountId,
        purpose: 'avatar',
        storageKey: key,
        contentType: image.contentType,
        sizeBytes: image.data.length,
        width: image.width,
        height: image.height,
      });
      await dbTx
        .update(profiles)
        .set({ avatarMediaId: id, updatedAt: sql`now()` })
        .where(eq(profiles.accountId, accountId));
      return old.map((o) => o.key);
    });
  } catch (err) {
    await storage.delete(key);
    throw err;
  }
  await Promise.all(oldKeys.map((k) => storage.delete(k)));
  return publicNameOf(key)!;
}

/** Removes the avatar (idempotent): the profile points nowhere, the file is deleted. */
export async function removeAvatar(db: Db, storage: FileStorage, accountId: string): Promise<void> {
  const keys = await db.transaction(async (dbTx) => {
    await lockProfile(dbTx, accountId);
    await dbTx
      .update(profiles)
      .set({ avatarMediaId: null, updatedAt: sql`now()` })
      .where(eq(profiles.accountId, accountId));
    const old = await dbTx
      .update(mediaFiles)
      .set({ deletedAt: sql`now()` })
      .where(
        and(eq(mediaFiles.ownerAccountId, accountId), eq(mediaFiles.purpose, 'avatar'), isNull(mediaFiles.deletedAt)),
      )
      .returning({ key: mediaFiles.storageKey });
    return old.map((o) => o.key);
  });
  await Promise.all(keys.map((k) => storage.delete(k)));
}

const hashTicket = (ticket: string) => createHash('sha256').update(ticket).digest('hex');

/**
 * Spec 4.3 and 5.13: the right is checked first (404 for anyone but the owner, the same answer
 * as for a file that does not exist), then a random single-use ticket is issued, bound to the
 * caller's session. Only its hash is stored.
 */
export async function issueTicket(
  db: Db,
  mediaId: string,
  caller: { accountId: string; sessionId: string },
  now: Date,
  ttlS: number,
): Promise<{ ticket: string; expiresAt: Date }> {
  const file = await findFile(db, mediaId);
  if (!mayRead(file, caller.accountId)) throw errors.notFound();
  const ticket = randomBytes(32).toString('base64url');
  const expiresAt = new Date(now.getTime() + ttlS * 1000);
  // Spent and expired tickets are worthless; clear this session's old ones as we go.
  await db
    .delete(mediaTickets)
    .where(and(eq(mediaTickets.sessionId, caller.sessionId), lt(mediaTickets.expiresAt, now)));
  await db.insert(mediaTickets).values({
    tokenHash: hashTicket(ticket),
    mediaId,
    sessionId: caller.sessionId,
    createdAt: now,
    expiresAt,
  });
  return { ticket, expiresAt };
}

/**
 * Spends a ticket for `mediaId`: one atomic update, so of two racing downloads exactly one wins.
 * Returns the account of the session the ticket was issued to while that session is still open,
 * else null. A ticket is spent even when the download then fails the right check.
 */
export async function spendTicket(db: Db, mediaId: string, ticket: string, now: Date): Promise<string | null> {
  const { rows } = await db.execute<{ account_id: string }>(sql`
    with spent as (
      update media_tickets set used_at = ${now}
       where token_hash = ${hashTicket(ticket)} and media_id = ${mediaId} and used_at is null and expires_at > ${now}
       returning session_id)
    select s.account_id from spent join sessions s on s.id = spent.session_id
     where s.closed_at is null and s.expires_at > now()`);
  return rows[0]?.account_id ?? null;
}

/** The file, when `accountId` may read it; otherwise undefined (the caller answers 404). */
export async function readableFile(db: Db, mediaId: string, accountId: string | null): Promise<MediaFile | undefined> {
  if (!accountId) return undefined;
  const file = await findFile(db, mediaId);
  return mayRead(file, accountId) ? file : undefined;
}
