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

/**
 * Jobs waiting in each pg-boss queue (created or waiting for a retry), by queue name, read from
 * pg-boss' own table in `jobsSchema` (pass `runtime.database`). Empty until pg-boss has made its
 * schema. For the queue-depth metric beside `indexerStats`.
 *
 * pg-boss 12 keeps jobs in `job`, a table partitioned by queue name: `job_common` holds every
 * queue without a table of its own, and a queue created with `partition: true` gets one. Reading
 * `job` covers them all (a partition alone would miss the others); `name` and `state` mean what
 * they meant in 10. Its `queue` table also counts queued jobs, but only as of pg-boss' last
 * monitoring pass, and a scrape must see a job as soon as it is committed.
 */
export async function jobQueueDepths(database: {
  pool: SqlRunner;
  jobsSchema: string;
}): Promise<Record<string, number>> {
  const schema = database.jobsSchema.replace(/"/g, '""');
  const present = await database.pool.query<{ present: boolean }>(
    `select to_regclass('"${schema}".job') is not null as present`,
  );
  if (!present.rows[0]?.present) return {};
  const { rows } = await database.pool.query<{ name: string; depth: string }>(
    `select name, count(*) as depth from "${schema}".job where state in ('created', 'retry') group by name`,
  );
  return Object.fromEntries(rows.map((r) => [r.name, Number(r.depth)]));
}
