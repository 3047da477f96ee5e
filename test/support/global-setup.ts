import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { loadConfig } from '@guest/config';
import { ensureDatabaseExists, runMigrations } from '@guest/db';

/**
 * Once per run: a fresh template database with every migration applied. Each test file then
 * clones it (CREATE DATABASE … TEMPLATE), so files never share rows and never wait on each other.
 */
export default async function setup(project: TestProject) {
  const config = loadConfig({ ...process.env, APP_ENV: 'test' });
  const template = `guest_test_tpl_${process.pid}`;
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

  return async () => {
    const c = new pg.Client({ connectionString: adminUrl.toString() });
    await c.connect();
    // Databases of test files that crashed before their own clean-up, and the template.
    const { rows } = await c.query<{ datname: string }>(
      `select datname from pg_database where datname like $1 or datname = $2`,
      [`guest_test_${process.pid}_%`, template],
    );
    for (const r of rows) await c.query(`drop database if exists "${r.datname}" with (force)`);
    await c.end();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    templateDatabase: string;
  }
}
