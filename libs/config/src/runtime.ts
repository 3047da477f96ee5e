import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './env-file.ts';

/** The oldest Node.js the project supports: package.json `engines.node` (">=X.Y.Z"). */
export function minimumNode(): string {
  const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { engines?: { node?: string } };
  const min = /^>=\s*v?(\d+(?:\.\d+){0,2})$/.exec(pkg.engines?.node ?? '')?.[1];
  if (!min) throw new Error(`package.json engines.node must read ">=X.Y.Z", not ${JSON.stringify(pkg.engines?.node)}`);
  return min;
}

export function nodeAtLeast(version: string, minimum: string): boolean {
  const parts = (v: string) => v.replace(/^v/, '').split('.').map(Number);
  const [a, b] = [parts(version), parts(minimum)];
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
}

/** Null when this process runs on a supported Node.js, else the sentence that says what to do. */
export function runtimeProblem(version: string = process.versions.node): string | null {
  const min = minimumNode();
  if (nodeAtLeast(version, min)) return null;
  return (
    `Node.js ${version.replace(/^v?/, 'v')} is older than the supported ${min} (package.json engines). ` +
    'Run through the npm scripts (npm run dev, npm test, npm start), which put node_modules/.bin/node first ' +
    `on PATH, or use a Node.js ${min.split('.')[0]} LTS.`
  );
}

/** For entry points: print the problem and exit 78 (like a configuration error). */
export function exitUnlessSupportedRuntime(): void {
  const problem = runtimeProblem();
  if (!problem) return;
  process.stderr.write(`${problem}\nThe process did not start.\n`);
  process.exit(78);
}
