import { spawnSync } from 'node:child_process';
import { ensureStack } from './stack/index.ts';

// The tests talk to real services: bring them up (or find them up) first.
await ensureStack();
const args = process.argv.slice(2);
const run = spawnSync('npx', ['vitest', 'run', ...args], {
  stdio: 'inherit',
  env: { ...process.env, APP_ENV: 'test' },
});
process.exit(run.status ?? 1);
