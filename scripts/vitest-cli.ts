import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * The vitest CLI file, to run with `process.execPath`: vitest then runs on this very Node.js (the
 * project's runtime), not on whatever `npx` would find first on PATH.
 */
export function vitestCli(): string {
  const pkg = createRequire(import.meta.url).resolve('vitest/package.json');
  const { bin } = JSON.parse(readFileSync(pkg, 'utf8')) as { bin: { vitest: string } };
  return path.join(path.dirname(pkg), bin.vitest);
}
