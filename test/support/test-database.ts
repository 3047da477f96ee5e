import pg from 'pg';
import { inject } from 'vitest';

/** Creates database `name` as a copy of the migrated template of this run; returns its URL. */
export async function cloneTemplate(baseUrl: string, name: string): Promise<string> {
  const admin = new URL(baseUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`create database "${name}" template "${inject('templateDatabase')}"`);
        break;
      } catch (err: any) {
        // Two clones of one template at the same moment can collide; the second simply waits.
        if (attempt >= 20 || !/being accessed by other users/.test(String(err?.message))) throw err;
        await new Promise((r) => setTimeout(r, 150));
      }
    }
  } finally {
    await client.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropDatabase(baseUrl: string, name: string): Promise<void> {
  const admin = new URL(baseUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    // Clients of pools this test just closed can still be saying goodbye: forcing the drop then
    // kills them mid-way, and their error surfaces in the test process as an uncaught exception.
    // Wait for them to go (a few seconds at most), then force whatever a test leaked.
    for (let waited = 0; waited < 5_000; waited += 50) {
      const { rows } = await client.query<{ n: number }>(
        'select count(*)::int as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
        [name],
      );
      if (!rows[0]?.n) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    await client.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await client.end();
  }
}
