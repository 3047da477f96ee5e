import { sql } from 'drizzle-orm';
import { errors } from '@guest/http-kit';
import { publishToAccount } from '@guest/realtime-bus';
import type { WriteDeps } from '../deps.ts';
import type { Badges } from './schemas.ts';

type BadgesDeps = Pick<WriteDeps, 'database' | 'redis' | 'config' | 'clock' | 'log'>;

/**
 * The unread counters of `/v1/me/badges` and the routes that clear them. Every change is told to
 * the account's open sockets as `badges.updated` (DESIGN G6a).
 */
export function createBadgesService(deps: BadgesDeps) {
  const { db } = deps.database;

  // One round trip, three counts from the real tables: unread notifications, messages after each
  // of the guest's read markers written by someone else, and assistant messages not yet seen.
  async function count(accountId: string): Promise<Badges> {
    const me = sql`${accountId}::uuid`;
    const { rows } = await db.execute<Badges>(sql`
      select
        (select count(*) from notifications n where n.account_id = ${me} and n.read_at is null)::int as notifications,
        (select count(*) from dialog_participants p
           join dialog_messages m on m.dialog_id = p.dialog_id and m.id > p.last_read_message_id
          where p.account_id = ${me} and m.sender_account_id is distinct from ${me})::int as messages,
        (select count(*) from assistant_messages a
          where a.account_id = ${me} and a.role = 'assistant' and a.seen_at is null)::int as assistant`);
    const r = rows[0]!;
    return { notifications: r.notifications, messages: r.messages, assistant: r.assistant };
  }

  /** After a counter changed: the new counts, published best effort (a Redis failure is logged). */
  async function changed(accountId: string): Promise<Badges> {
    const badges = await count(accountId);
    const { redis, config, clock } = deps;
    try {
      await publishToAccount(redis, config.REDIS_KEY_PREFIX, accountId, 'badges.updated', badges, clock.now());
    } catch (err) {
      deps.log.warn({ err }, 'badges.updated not published');
    }
    return badges;
  }

  return {
    get: count,

    /** Marks every unread notification of the account read; answers the new counters. */
    async markNotificationsRead(accountId: string): Promise<Badges> {
      await db.execute(
        sql`update notifications set read_at = ${deps.clock.now()} where account_id = ${accountId} and read_at is null`,
      );
      return changed(accountId);
    },

    /**
     * Moves the guest's read marker of one dialog to its newest message; answers the new counters.
     * A dialog the guest does not take part in (or that does not exist) is 404.
     */
    async markDialogRead(accountId: string, dialogId: string): Promise<Badges> {
      const res = await db.execute(sql`
        update dialog_participants p
           set last_read_message_id = greatest(p.last_read_message_id,
                 coalesce((select max(m.id) from dialog_messages m where m.dialog_id = p.dialog_id), 0))
         where p.dialog_id = ${dialogId} and p.account_id = ${accountId}`);
      if (!res.rowCount) throw errors.notFound('No such dialog of yours.');
      return changed(accountId);
    },

    /** Marks every assistant message to the guest as seen; answers the new counters. */
    async markAssistantSeen(accountId: string): Promise<Badges> {
      await db.execute(sql`
        update assistant_messages set seen_at = ${deps.clock.now()}
         where account_id = ${accountId} and role = 'assistant' and seen_at is null`);
      return changed(accountId);
    },
  };
}

export type BadgesService = ReturnType<typeof createBadgesService>;
