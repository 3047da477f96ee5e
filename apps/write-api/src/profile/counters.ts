import { sql } from 'drizzle-orm';
import type { Db } from '@guest/db';

/** Marks every unread notification of the account read; returns how many changed. */
export async function markNotificationsRead(db: Db, accountId: string, now: Date): Promise<number> {
  const res = await db.execute(
    sql`update notifications set read_at = ${now} where account_id = ${accountId} and read_at is null`,
  );
  return res.rowCount ?? 0;
}

/**
 * Moves the guest's read marker of one dialog to its newest message. Null when the guest does not
 * take part in it (or it does not exist): the caller answers 404 either way.
 */
export async function markDialogRead(db: Db, accountId: string, dialogId: string): Promise<number | null> {
  const res = await db.execute(sql`
    update dialog_participants p
       set last_read_message_id = greatest(p.last_read_message_id,
             coalesce((select max(m.id) from dialog_messages m where m.dialog_id = p.dialog_id), 0))
     where p.dialog_id = ${dialogId} and p.account_id = ${accountId}`);
  return res.rowCount ? res.rowCount : null;
}

/** Marks every assistant message to the guest as seen; returns how many changed. */
export async function markAssistantSeen(db: Db, accountId: string, now: Date): Promise<number> {
  const res = await db.execute(sql`
    update assistant_messages set seen_at = ${now}
     where account_id = ${accountId} and role = 'assistant' and seen_at is null`);
  return res.rowCount ?? 0;
}
