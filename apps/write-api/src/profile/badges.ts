import type { FastifyInstance } from 'fastify';
import { publishToAccount } from '@guest/realtime/bus';
import { sql } from 'drizzle-orm';
import type { Db } from '@guest/db';
import type { Badges } from './schemas.ts';

// One round trip, three counts from the real tables: unread notifications, messages after each
// of the guest's read markers written by someone else, and assistant messages not yet seen.
export async function countBadges(db: Db, accountId: string): Promise<Badges> {
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

/**
 * After a counter changed: the new counts, told to the account's open sockets as `badges.updated`
 * (DESIGN G6a). Best effort: a Redis failure is logged and never fails the request.
 */
export async function badgesChanged(app: FastifyInstance, accountId: string): Promise<Badges> {
  const badges = await countBadges(app.runtime.database.db, accountId);
  const { redis, config, clock } = app.runtime;
  try {
    await publishToAccount(redis, config.REDIS_KEY_PREFIX, accountId, 'badges.updated', badges, clock.now());
  } catch (err) {
    app.log.warn({ err }, 'badges.updated not published');
  }
  return badges;
}
