import type { Database } from '@guest/db';
import { sql } from 'drizzle-orm';
import { inTransaction } from '@guest/jobs';
import { signalCatalogChanges } from './signal.ts';

export interface DeadLetter {
  id: number;
  entity: string;
  entity_id: number;
  version: number;
  attempts: number;
  last_error: string | null;
  dead_at: string;
  created_at: string;
}

/** Changes that failed `INDEXER_MAX_ATTEMPTS` times, oldest first, for an operator to inspect. */
export async function listDeadLetters(database: Database, limit = 100): Promise<DeadLetter[]> {
  const { rows } = await database.pool.query<DeadLetter>(
    `select id, entity, entity_id, version, attempts, last_error, dead_at::text, created_at::text
       from catalog_outbox where dead_at is not null order by id limit $1`,
    [limit],
  );
  return rows.map((r) => ({ ...r, id: Number(r.id), version: Number(r.version) }));
}

/**
 * Puts dead letters back in the queue with a fresh attempt budget; all of them without `ids`.
 * The worker's pg-boss job is queued in the same transaction.
 */
export async function replayDeadLetters(database: Database, ids?: number[]): Promise<number> {
  return inTransaction(database, async (tx, jobDb) => {
    const res = await tx.execute(
      sql`update catalog_outbox set dead_at = null, attempts = 0, next_attempt_at = now()
           where dead_at is not null and (${ids ?? null}::bigint[] is null or id = any(${ids ?? null}::bigint[]))`,
    );
    if (res.rowCount) await signalCatalogChanges(jobDb, database);
    return res.rowCount ?? 0;
  });
}
