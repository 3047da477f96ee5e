import { spawnSync } from 'node:child_process';
import { repoRoot } from '@guest/config';

/**
 * `npm run fuzz [-- --long] [-- --seed N] [-- --requests N] [-- --only i,j]`: the OpenAPI-driven
 * fuzzer of test/fuzz (issue 14 point 8) outside the regular run: 5,000 requests as in CI, or
 * 50,000 with `--long` (nightly), from a new seed each time unless `--seed` names one. It runs
 * as the int-tier test it is, in its own isolated database, Redis prefix and index prefix on the
 * services of `.data/stack.env`.
 */
const args = process.argv.slice(2);
const value = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : args.find((a) => a.startsWith(`${name}=`))?.split('=')[1];
};
const env: Record<string, string> = {};
env.FUZZ_REQUESTS = value('--requests') ?? (args.includes('--long') ? '50000' : '5000');
// A new seed each time unless one is given (CI keeps its fixed one): the run prints it.
env.FUZZ_SEED = value('--seed') ?? String(Math.floor(Math.random() * 2 ** 31));
const only = value('--only');
if (only !== undefined) env.FUZZ_ONLY = only;
const concurrency = value('--concurrency');
if (concurrency !== undefined) env.FUZZ_CONCURRENCY = concurrency;

const run = spawnSync('npx', ['vitest', 'run', '--project', 'int', 'test/fuzz/openapi-fuzz.test.ts'], {
  cwd: repoRoot,
  stdio: 'inherit',
  env: { ...process.env, ...env },
});
process.exit(run.status ?? 1);
