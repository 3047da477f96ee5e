import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { exitUnlessSupportedRuntime } from '@guest/config';
import { ensureStack, runningCluster } from './stack/index.ts';

/**
 * `npm test`: brings the real services up (or finds them up), runs every suite, then the
 * resilience suites that stop a service (alone, last; the 3-node cluster suite last of all, see
 * vitest.resilience.config.ts). Arguments go to vitest and skip the resilience run:
 * `npm test -- test/auth`.
 */
exitUnlessSupportedRuntime();
process.stdout.write(`[test] Node.js ${process.version} (${process.execPath})\n`);
await ensureStack();
const args = process.argv.slice(2);
const env = { ...process.env, APP_ENV: 'test' };
// vitest on this very Node.js (not whatever `npx` would find first on PATH).
const vitestPkg = createRequire(import.meta.url).resolve('vitest/package.json');
const vitestCli = path.join(
  path.dirname(vitestPkg),
  (JSON.parse(readFileSync(vitestPkg, 'utf8')) as { bin: { vitest: string } }).bin.vitest,
);
const vitest = (extra: string[]) =>
  spawnSync(process.execPath, [vitestCli, 'run', ...extra], { stdio: 'inherit', env }).status ?? 1;

const main = vitest(args);
if (main !== 0 || args.length > 0) process.exit(main);
const nodes = runningCluster()?.nodes;
const resilience = vitest(['--config', 'vitest.resilience.config.ts']);
// The cluster suite puts back the node count it found; should it have died half-way, do it here,
// so that `npm test` never leaves a developer with another cluster than they had.
if (nodes !== undefined && runningCluster()?.nodes !== nodes) await ensureStack({ nodes });
process.exit(resilience);
