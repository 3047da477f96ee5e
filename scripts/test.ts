import { spawnSync } from 'node:child_process';
import { ensureStack, runningCluster } from './stack/index.ts';

/**
 * `npm test`: brings the real services up (or finds them up), runs every suite, then the
 * resilience suites that stop a service (alone, last; the 3-node cluster suite last of all, see
 * vitest.resilience.config.ts). Arguments go to vitest and skip the resilience run:
 * `npm test -- test/auth`.
 */
await ensureStack();
const args = process.argv.slice(2);
const env = { ...process.env, APP_ENV: 'test' };
const vitest = (extra: string[]) =>
  spawnSync('npx', ['vitest', 'run', ...extra], { stdio: 'inherit', env }).status ?? 1;

const main = vitest(args);
if (main !== 0 || args.length > 0) process.exit(main);
const nodes = runningCluster()?.nodes;
const resilience = vitest(['--config', 'vitest.resilience.config.ts']);
// The cluster suite puts back the node count it found; should it have died half-way, do it here,
// so that `npm test` never leaves a developer with another cluster than they had.
if (nodes !== undefined && runningCluster()?.nodes !== nodes) await ensureStack({ nodes });
process.exit(resilience);
