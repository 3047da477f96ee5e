import type pg from 'pg';
import type { Config } from '@guest/config';
import { eventually, StopWaiting } from './eventually.ts';

/**
 * Waits until every pg-boss job of these queues in this test's database has reached `completed`
 * (none `created`, `retry` or `active`): the work they stand for is done, so whatever it was
 * going to write, send or index is there, and whatever it did not do, it will not do.
 */
export async function jobsCompleted(
  t: { sql: pg.Pool; config: Config },
  queues: string[],
  opts: { timeoutMs?: number } = {},
): Promise<void> {
  await eventually(
    `every job of ${queues.join(', ')} to be completed`,
    async () => {
      const { rows } = await t.sql.query<{ state: string; n: number }>(
        `select state, count(*)::int as n from ${t.config.JOBS_SCHEMA}.job where name = any($1) group by state`,
        [queues],
      );
      const states = Object.fromEntries(rows.map((r) => [r.state, r.n])) as Record<string, number>;
      if (states.failed) throw new StopWaiting(`a job failed: ${JSON.stringify(states)}`);
      return states;
    },
    { timeoutMs: opts.timeoutMs ?? 15_000, intervalMs: 50, until: (s) => !s.created && !s.retry && !s.active },
  );
}
