import { aliasName } from '@guest/catalog';
import type { Runtime } from '@guest/runtime';
import { addDays, todayIn } from './schedule/expand-schedule.ts';
import { writeEvents } from './outbox/apply-changes.ts';
import { loadProjectionContext } from './source/load-sources.ts';
import { applyDeps, type Logger } from './deps.ts';

/** Days at the far end of the horizon rewritten by each roll: catches up after a missed week. */
const CATCH_UP_DAYS = 7;

/**
 * Moves the 180-day window of event occurrences forward: removes days before "today" (in each
 * venue's zone) and writes the days that entered the window. Idempotent; the worker schedules it
 * hourly so every zone's midnight is covered within the hour.
 */
export async function rollEventHorizon(rt: Runtime, log: Logger): Promise<{ removed: number; written: number }> {
  const index = aliasName(rt.config.INDEX_PREFIX, 'events');
  const now = rt.clock.now();
  const horizon = rt.config.EVENTS_HORIZON_DAYS;
  const { rows: zones } = await rt.database.pool.query<{ timezone: string }>('select distinct timezone from events');
  let removed = 0;
  for (const { timezone } of zones) {
    removed += await rt.search.deleteByQuery(index, {
      query: { bool: { filter: [{ term: { timezone } }, { range: { day: { lt: todayIn(timezone, now) } } }] } },
    });
  }
  const deps = applyDeps(rt);
  const ctx = await loadProjectionContext(rt.database.db);
  let written = 0;
  for (let after = 0; ;) {
    const { rows } = await rt.database.pool.query<{ id: number }>(
      'select id from events where id > $1 order by id limit 200',
      [after],
    );
    if (!rows.length) break;
    after = rows[rows.length - 1]!.id;
    const client = await rt.database.pool.connect();
    try {
      await client.query('begin');
      // Same per-event lock as the outbox worker: a roll never interleaves with an update.
      for (const r of rows) await client.query('select pg_advisory_xact_lock(hashtext($1))', [`catalog-event:${r.id}`]);
      const out = await writeEvents(
        deps,
        ctx,
        rows.map((r) => r.id),
        {
          fromDay: (zone) => addDays(todayIn(zone, now), horizon - CATCH_UP_DAYS),
        },
      );
      written += out.documents;
      if (out.failed.size) log.warn({ failed: Object.fromEntries(out.failed) }, 'horizon roll: some events failed');
      await client.query('commit');
    } catch (err) {
      await client.query('rollback').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }
  log.info({ removed, written }, 'event horizon rolled');
  return { removed, written };
}
