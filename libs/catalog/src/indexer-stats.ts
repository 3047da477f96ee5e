export interface IndexerStats {
  /** Changes committed but not yet in the index. */
  pending: number;
  /** Age of the oldest pending change, in seconds: how far the index is behind. */
  lag_s: number;
  /** Pending changes that already failed at least once (retrying with backoff). */
  retrying: number;
  /** Changes that exhausted their attempts and wait for an operator (`indexer dead-letters`). */
  dead: number;
}

/** Anything that runs SQL: a `pg.Pool` (`runtime.database.pool`) or a client. */
export interface SqlRunner {
  query<R extends Record<string, unknown>>(text: string): Promise<{ rows: R[] }>;
}

/**
 * Indexer lag and failure counts, for `/health` or a metrics endpoint: cheap enough to call on
 * every scrape (it uses the partial indices of the outbox). Pass `runtime.database`.
 */
export async function indexerStats(database: { pool: SqlRunner }): Promise<IndexerStats> {
  const { rows } = await database.pool.query<{ pending: string; lag_s: number | null; retrying: string; dead: string }>(
    `select
        (select count(*) from catalog_outbox where processed_at is null and dead_at is null) as pending,
        (select extract(epoch from now() - min(created_at))::float8 from catalog_outbox
          where processed_at is null and dead_at is null) as lag_s,
        (select count(*) from catalog_outbox where processed_at is null and dead_at is null and attempts > 0) as retrying,
        (select count(*) from catalog_outbox where dead_at is not null) as dead`,
  );
  const r = rows[0]!;
  return {
    pending: Number(r.pending),
    lag_s: Math.max(0, r.lag_s ?? 0),
    retrying: Number(r.retrying),
    dead: Number(r.dead),
  };
}
