import type { Runtime } from '@guest/runtime';
import { createJobs, type Jobs } from '@guest/jobs';
import { purgeExpiredIdempotencyKeys } from '@guest/http-kit';
import { rollEventHorizon } from './horizon.ts';
import type { Logger } from './deps.ts';

export interface MaintenanceJob {
  /** pg-boss queue and schedule name. */
  name: string;
  /** Cron (UTC). */
  cron: string;
  run(rt: Runtime, log: Logger): Promise<unknown>;
}

/**
 * Periodic upkeep. Each is a pg-boss schedule: pg-boss creates one job per period however many
 * processes registered it, and one of them runs it (retried with backoff when it fails).
 */
export const MAINTENANCE_JOBS: readonly MaintenanceJob[] = [
  // Hourly, so the midnight of every zone is handled within the hour.
  { name: 'catalog-horizon-roll', cron: '5 * * * *', run: (rt, log) => rollEventHorizon(rt, log) },
  {
    // Expired keys are already ignored by requests; this only keeps the table small.
    name: 'idempotency-purge',
    cron: '35 * * * *',
    run: async (rt, log) => {
      const removed = await purgeExpiredIdempotencyKeys(rt.database.db);
      log.info({ removed }, 'expired idempotency keys purged');
    },
  },
];

export interface Maintenance {
  readonly jobs: Jobs;
  stop(): Promise<void>;
}

/**
 * Registers the maintenance schedules and works their queues in this process. Called by every
 * process that runs the indexer worker (`indexer worker`, `npm run dev`), so none of them can
 * forget one.
 */
export async function startMaintenance(rt: Runtime, log: Logger): Promise<Maintenance> {
  const jobs = createJobs({ connectionString: rt.config.DATABASE_URL, schema: rt.config.JOBS_SCHEMA, log });
  await jobs.start(MAINTENANCE_JOBS.map(({ name }) => ({ name, retryLimit: 5, retryDelay: 60, retryBackoff: true })));
  for (const job of MAINTENANCE_JOBS) {
    await jobs.boss.schedule(job.name, job.cron, {});
    await jobs.work(job.name, {}, async () => {
      await job.run(rt, log);
    });
  }
  return { jobs, stop: () => jobs.stop() };
}
