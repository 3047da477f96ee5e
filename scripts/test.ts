import { spawnSync } from 'node:child_process';
import { ensureStack } from './stack/index.ts';

/**
 * `npm test`: brings the real services up (or finds them up), runs every suite, then the
 * resilience suites that stop a service (alone, last). Arguments go to vitest and skip the
 * resilience run: `npm test -- test/auth`.
 */
await ensureStack();
const args = process.argv.slice(2);
const env = { ...process.env, APP_ENV: 'test' };
const vitest = (extra: string[]) =>
  spawnSync('npx', ['vitest', 'run', ...extra], { stdio: 'inherit', env }).status ?? 1;

const main = vitest(args);
if (main !== 0 || args.length > 0) process.exit(main);
process.exit(vitest(['--config', 'vitest.resilience.config.ts']));
