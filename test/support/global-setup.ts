import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '@guest/config';
import { ensureDatabaseExists, runMigrations } from '@guest/db';

/**
 * Once per run of a tier that uses services (int, e2e, resilience): a fresh template database
 * with every migration applied. Each test environment then clones it (CREATE DATABASE …
 * TEMPLATE, test/support/isolated-env.ts), so files never share rows and never wait on each other.
 */
export default async function setup(project: TestProject) {
  const config = loadConfig({ ...process.env, APP_ENV: 'test' });
  // This process and this tier: every database, key and index of the run carries it.
  const runId = `${process.pid}_${project.name}`;
  const template = `guest_test_tpl_${runId}`;
  const adminUrl = new URL(config.DATABASE_URL);
  adminUrl.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  await admin.query(`drop database if exists "${template}" with (force)`);
  await admin.end();
  const templateUrl = new URL(config.DATABASE_URL);
  templateUrl.pathname = `/${template}`;
  await ensureDatabaseExists(templateUrl.toString());
  await runMigrations(templateUrl.toString());
  project.provide('templateDatabase', template);
  project.provide('testRunId', runId);

  return async () => {
    const c = new pg.Client({ connectionString: adminUrl.toString() });
    await c.connect();
    // The template, and databases of test files that crashed before their own clean-up. Those of
    // failed files were renamed guest_kept_… and stay.
    const { rows } = await c.query<{ datname: string }>(
      `select datname from pg_database where datname like $1 or datname = $2`,
      [`guest\\_test\\_${runId}\\_%`, template],
    );
    for (const r of rows) await c.query(`drop database if exists "${r.datname}" with (force)`);
    const kept = await c.query<{ datname: string }>(
      `select datname from pg_database where datname like $1 order by 1`,
      [`guest\\_kept\\_${runId}\\_%`],
    );
    await c.end();
    if (kept.rows.length) {
      const url = new URL(config.DATABASE_URL);
      const list = kept.rows.map((r) => {
        url.pathname = `/${r.datname}`;
        return `  ${url.toString()}`;
      });
      console.warn(
        `\nDatabases of failed ${project.name} test files, kept to be looked at (npm run test:drop-kept removes them):\n${list.join('\n')}\n`,
      );
    }
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: string;
    /** `<pid of the vitest process>_<tier>`: names every database, Redis prefix and index prefix of the run. */
    testRunId: string;
  }
}
