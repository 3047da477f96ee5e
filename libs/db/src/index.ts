import path from 'node:path';
import pg from 'pg';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { repoRoot } from '@guest/config';
import * as schema from './schema/index.ts';

export { schema };
export type Db = NodePgDatabase<typeof schema>;
/** An open database transaction (the `dbTx` of `db.transaction(async (dbTx) => …)`). */
export type DbTx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Where a statement may run: the pool, or an open transaction. */
export type DbOrTx = Db | DbTx;
export const migrationsFolder = path.join(repoRoot, 'migrations');

// Postgres `date` and `int8` come back as strings by default: dates stay strings (they are
// calendar dates in the object's zone, never instants), counts fit in JS numbers.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));
pg.types.setTypeParser(pg.types.builtins.DATE, (v) => v);

export interface Database {
  pool: pg.Pool;
  db: Db;
  /** The schema pg-boss keeps its jobs in (`JOBS_SCHEMA`), for code that queues jobs in its own transactions. */
  jobsSchema: string;
  close(): Promise<void>;
}

/**
 * `jobsSchema` defaults to pg-boss' (and `JOBS_SCHEMA`'s) default, `pgboss`. `connectTimeoutMs`
 * bounds the wait for a connection (a new one, or a free one of the pool); unbounded unless given.
 */
export function createDatabase(
  url: string,
  max = 10,
  opts: { jobsSchema?: string; connectTimeoutMs?: number } = {},
): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    idleTimeoutMillis: 30_000,
    ...(opts.connectTimeoutMs ? { connectionTimeoutMillis: opts.connectTimeoutMs } : {}),
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const db = drizzle(pool, { schema });
  return { pool, db, jobsSchema: opts.jobsSchema ?? 'pgboss', close: () => pool.end() };
}

export async function runMigrations(url: string): Promise<void> {
  const database = createDatabase(url, 1);
  try {
    await migrate(database.db, { migrationsFolder });
  } finally {
    await database.close();
  }
}

/** Creates the database named in `url` when it does not exist (development and tests). */
export async function ensureDatabaseExists(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database "${name.replace(/"/g, '""')}"`);
  } finally {
    await client.end();
  }
}

/**
 * How many of the repository's migrations the database lacks (0: up to date), the way
 * drizzle's migrator decides: a migration is applied when the newest recorded one is at least as
 * recent. A database that never saw a migration lacks them all. For `/readyz`: a process on an
 * unmigrated database would answer 500 on its first query of a missing table.
 */
export async function pendingMigrations(pool: pg.Pool): Promise<number> {
  const files = readMigrationFiles({ migrationsFolder });
  const table = await pool.query<{ present: boolean }>(
    `select to_regclass('drizzle.__drizzle_migrations') is not null as present`,
  );
  if (!table.rows[0]?.present) return files.length;
  const { rows } = await pool.query<{ last: string | null }>(
    'select max(created_at)::text as last from drizzle.__drizzle_migrations',
  );
  const last = rows[0]?.last == null ? -Infinity : Number(rows[0].last);
  return files.filter((m) => m.folderMillis > last).length;
}
