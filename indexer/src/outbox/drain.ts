import type { Database } from '@guest/db';
import { applyChanges, type ApplyDeps, type ChangeRow } from './apply-changes.ts';
import { jobDbOf, signalCatalogChanges } from './signal.ts';

const REFERENCE_ENTITIES = new Set(['place', 'category', 'amenity', 'currency', 'fx']);

export interface DrainOptions {
  batchSize: number;
  maxAttempts: number;
  retryBaseMs: number;
  retryMaxMs: number;
}

export interface DrainResult {
  claimed: number;
  applied: number;
  failed: number;
  dead: number;
  documents: number;
}

/**
 * Every drain holds this lock, shared, for its claim transaction; a full rebuild takes it
 * exclusively around its last catch-up and the alias swap (`reindexAll`). So no change reaches
 * the old indices (and readers) after the rebuild's last look at the outbox: whatever readers
 * were served before the swap, the new indices hold too.
 */
export const SWAP_LOCK_SQL = (mode: 'shared' | 'exclusive') =>
  `select ${mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock'}(hashtext('catalog-reindex:swap'), 0)`;

/** Exponential backoff for the n-th failure (1-based), capped. */
export function retryDelayMs(attempt: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** (attempt - 1));
}

/**
 * Claims one batch of due outbox rows (FOR UPDATE SKIP LOCKED: a row is held by one worker at a
 * time, other workers take the next rows) and applies it. The claim is a transaction that stays
 * open while the engine is written: if the process dies, Postgres rolls it back and the rows are
 * simply due again, so nothing is lost; writing them twice is harmless (external versions).
 * A failing row is retried with backoff (a `catalog-changes` job is queued for when it is due)
 * and, after `maxAttempts`, parked as a dead letter.
 */
export async function drainOnce(database: Database, deps: ApplyDeps, opts: DrainOptions): Promise<DrainResult> {
  const client = await database.pool.connect();
  const result: DrainResult = { claimed: 0, applied: 0, failed: 0, dead: 0, documents: 0 };
  try {
    await client.query('begin');
    await client.query(SWAP_LOCK_SQL('shared'));
    const { rows } = await client.query<{
      id: number;
      entity: ChangeRow['entity'];
      entity_id: number;
      version: number;
      attempts: number;
    }>(
      `select id, entity, entity_id, version, attempts from catalog_outbox
        where processed_at is null and dead_at is null and next_attempt_at <= now()
        order by id limit $1 for update skip locked`,
      [opts.batchSize],
    );
    result.claimed = rows.length;
    if (!rows.length) {
      await client.query('commit');
      return result;
    }
    let failed: Map<number, string>;
    try {
      const out = await applyChanges(
        deps,
        rows.map((r) => ({ id: Number(r.id), entity: r.entity, entityId: r.entity_id, version: Number(r.version) })),
        client,
      );
      failed = out.failed;
      result.documents = out.documents;
    } catch (err) {
      // The engine is down or refused the request as a whole: every row of the batch failed.
      const reason = (err as Error).message ?? String(err);
      failed = new Map(rows.map((r) => [Number(r.id), reason]));
    }
    const ok = rows.filter((r) => !failed.has(Number(r.id))).map((r) => Number(r.id));
    if (ok.length)
      await client.query('update catalog_outbox set processed_at = now() where id = any($1::bigint[])', [ok]);
    for (const r of rows) {
      const reason = failed.get(Number(r.id));
      if (reason === undefined) continue;
      const attempt = r.attempts + 1;
      const dead = attempt >= opts.maxAttempts;
      await client.query(
        `update catalog_outbox set attempts = $2, last_error = $3,
            next_attempt_at = now() + make_interval(secs => $4::double precision / 1000),
            dead_at = case when $5::boolean then now() end
          where id = $1`,
        [r.id, attempt, reason.slice(0, 2000), retryDelayMs(attempt, opts.retryBaseMs, opts.retryMaxMs), dead],
      );
      if (dead) result.dead++;
      else result.failed++;
    }
    if (result.failed) {
      // Their next attempt gets its pg-boss job now, in the claim's transaction: a retry is never
      // left without a job to run it, even if this process dies right after the commit.
      const retrying = rows.filter((r) => failed.has(Number(r.id))).map((r) => Number(r.id));
      const { rows: due } = await client.query<{ at: Date | null }>(
        'select min(next_attempt_at) as at from catalog_outbox where id = any($1::bigint[]) and dead_at is null',
        [retrying],
      );
      if (due[0]?.at) await signalCatalogChanges(jobDbOf(client), database, due[0].at);
    }
    result.applied = ok.length;
    await client.query('commit');
    const okIds = new Set(ok);
    const reference = [
      ...new Set(rows.filter((r) => okIds.has(Number(r.id)) && REFERENCE_ENTITIES.has(r.entity)).map((r) => r.entity)),
    ];
    if (reference.length && deps.publishReferenceChange) {
      // Best effort: a lost message only means a reader's cache lives until its TTL.
      await deps.publishReferenceChange(reference).catch(() => {});
    }
    return result;
  } catch (err) {
    await client.query('rollback').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}
