import { aliasName, addDays, todayIn } from '@guest/catalog';
import type { Runtime } from '@guest/runtime';
import { writeEvents } from './outbox/apply-changes.ts';
import { loadProjectionContext } from './source/load-sources.ts';
import { applyDeps, type Logger } from './deps.ts';

/**
 * What the last complete roll wrote: the instant it ran at, and the concrete events index it
 * wrote into. Its window ended on that instant's date + horizon - 1 in every zone.
 */
interface RollMark {
  index: string;
  at: string;
}

const markKey = (prefix: string) => `indexer:horizon-rolled:${prefix}`;

/**
 * The mark, if it describes the index the alias points at now. Anything else (first roll, a
 * rebuilt index, Redis flushed or down, a clock set back) gives null: the roll then rewrites the
 * whole window, which costs time but can never leave a day out.
 */
async function readMark(rt: Runtime, index: string, now: Date, log: Logger): Promise<Date | null> {
  try {
    const raw = await rt.redis.get(markKey(rt.config.INDEX_PREFIX));
    const mark = raw ? (JSON.parse(raw) as RollMark) : null;
    if (!mark || mark.index !== index) return null;
    const at = new Date(mark.at);
    return Number.isNaN(at.getTime()) || at.getTime() > now.getTime() ? null : at;
  } catch (err) {
    log.warn({ err }, 'horizon roll: mark of the last roll unreadable, rewriting the whole window');
    return null;
  }
}

/**
 * Moves the 180-day window of event occurrences forward: removes occurrences that are over and
 * began before "today" (in each venue's zone; one that started yesterday and still runs stays),
 * and writes every day that entered the window since the last complete roll, however long ago
 * that was. Idempotent; the worker schedules it hourly so every zone's midnight is covered within
 * the hour.
 */
export async function rollEventHorizon(rt: Runtime, log: Logger): Promise<{ removed: number; written: number }> {
  const index = aliasName(rt.config.INDEX_PREFIX, 'events');
  const now = rt.clock.now();
  const horizon = rt.config.EVENTS_HORIZON_DAYS;
  const concrete = (await rt.search.getAlias(index)).sort().join(',');
  const lastRoll = await readMark(rt, concrete, now, log);
  // The first day the last roll did not write; without a mark, yesterday (a running occurrence).
  const fromDay = (zone: string) =>
    lastRoll ? addDays(todayIn(zone, lastRoll), horizon) : addDays(todayIn(zone, now), -1);

  const { rows: zones } = await rt.database.pool.query<{ timezone: string }>('select distinct timezone from events');
  let removed = 0;
  for (const { timezone } of zones) {
    removed += await rt.search.deleteByQuery(index, {
      query: {
        bool: {
          filter: [
            { term: { timezone } },
            { range: { day: { lt: todayIn(timezone, now) } } },
            { range: { end_at: { lte: now.toISOString() } } },
          ],
        },
      },
    });
  }
  const deps = applyDeps(rt);
  const ctx = await loadProjectionContext(rt.database.db);
  let written = 0;
  let failed = 0;
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
        { fromDay },
      );
      written += out.documents;
      failed += out.failed.size;
      if (out.failed.size) log.warn({ failed: Object.fromEntries(out.failed) }, 'horizon roll: some events failed');
      await client.query('commit');
    } catch (err) {
      await client.query('rollback').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }
  // Only a roll that wrote everything moves the mark: after a failure the next roll starts from
  // the same days again.
  if (!failed) {
    const mark: RollMark = { index: concrete, at: now.toISOString() };
    await rt.redis
      .set(markKey(rt.config.INDEX_PREFIX), JSON.stringify(mark))
      .catch((err) => log.warn({ err }, 'horizon roll: could not store its mark; the next roll rewrites the window'));
  }
  log.info({ removed, written, from: lastRoll?.toISOString() ?? 'whole window' }, 'event horizon rolled');
  return { removed, written };
}
