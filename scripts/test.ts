import { spawnSync } from 'node:child_process';
import pg from 'pg';
import { exitUnlessSupportedRuntime, loadConfig } from '@guest/config';
import { ensureStack } from './stack/index.ts';
import { vitestCli } from './vitest-cli.ts';

/**
 * `npm test`: brings the real services up (or finds them up), then runs the four test tiers of
 * vitest.config.ts in order, one vitest run each, and stops at the first that fails:
 *
 *   unit        beside the code, no services          npm run test:unit
 *   int         test/**, real services                npm run test:int
 *   e2e         test/e2e                              npm run test:e2e
 *   resilience  test/resilience: stops services       npm run test:resilience
 *               of its own, one file at a time
 *
 * `tsx scripts/test.ts <tier> [vitest arguments]` runs one tier (`npm run test:int -- test/write-api/auth`);
 * `npm test -- <vitest arguments>` runs unit, int and e2e with them, without resilience.
 * `tsx scripts/test.ts drop-kept` drops the databases kept for failed test files.
 */
const TIERS = ['unit', 'int', 'e2e', 'resilience'] as const;
type Tier = (typeof TIERS)[number];

const [first, ...rest] = process.argv.slice(2);
if (first === 'drop-kept') {
  await dropKept();
  process.exit(0);
}

exitUnlessSupportedRuntime();
process.stdout.write(`[test] Node.js ${process.version} (${process.execPath})\n`);
await ensureStack();
const env = { ...process.env, APP_ENV: 'test' };
const vitest = (args: string[]) =>
  spawnSync(process.execPath, [vitestCli(), 'run', ...args], { stdio: 'inherit', env }).status ?? 1;

if (TIERS.includes(first as Tier)) process.exit(vitest(['--project', first as Tier, ...rest]));
if (first !== undefined)
  process.exit(vitest(['--project', 'unit', '--project', 'int', '--project', 'e2e', first, ...rest]));
for (const tier of TIERS) {
  const status = vitest(['--project', tier]);
  if (status !== 0) process.exit(status);
}

/** Databases of failed test files are kept (`guest_kept_…`, test/support/isolated-env.ts) until this. */
async function dropKept(): Promise<void> {
  const url = new URL(loadConfig({ ...process.env, APP_ENV: 'test' }).DATABASE_URL);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    const { rows } = await client.query<{ datname: string }>(
      `select datname from pg_database where datname like 'guest\\_kept\\_%' order by 1`,
    );
    for (const { datname } of rows) {
      await client.query(`drop database if exists "${datname}" with (force)`);
      console.log(`dropped ${datname}`);
    }
    if (!rows.length) console.log('no kept test database');
  } finally {
    await client.end();
  }
}
