import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, readEnvFile, repoRoot } from '@guest/config';
import { SERVICE_VARIABLES } from '../../scripts/stack/index.ts';

/**
 * `.data/stack.env` is what `npm run stack:up` found or started, the default of every later
 * command. A run that names its services in the environment (the Elasticsearch suites, a bench
 * against another engine) must not turn its one-off choice into everybody's default.
 * ensureStack runs in a child process, against the services this suite already uses, with its
 * file pointed at a temporary one.
 */
const dir = mkdtempSync(path.join(tmpdir(), 'stack-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const running = loadConfig({ ...process.env, APP_ENV: 'test' });

function ensureStackIn(file: string, env: Record<string, string>, record = false) {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !SERVICE_VARIABLES.includes(k)));
  const script = `
    import { ensureStack } from './scripts/stack/index.ts';
    await ensureStack({ file: ${JSON.stringify(file)}, record: ${record} });
    console.log('ENV ' + JSON.stringify({ DATABASE_URL: process.env.DATABASE_URL, SEARCH_URL: process.env.SEARCH_URL }));`;
  const out = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: repoRoot,
    env: { ...base, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(out.status, out.stderr).toBe(0);
  return {
    log: out.stdout,
    env: JSON.parse(
      out.stdout
        .split('\n')
        .find((l) => l.startsWith('ENV '))!
        .slice(4),
    ) as Record<string, string>,
  };
}

describe('the stack file keeps what `stack up` recorded', () => {
  it.skipIf(running.SEARCH_ENGINE !== 'opensearch')(
    'given SEARCH_ENGINE and SEARCH_URL in the environment, then the file is left as it is and the services it found reach the children',
    () => {
      const file = path.join(dir, 'chosen.env');
      const run = ensureStackIn(file, { SEARCH_ENGINE: 'opensearch', SEARCH_URL: running.SEARCH_URL });
      expect(existsSync(file), 'no file written').toBe(false);
      expect(run.log).toContain('left as it is (SEARCH_ENGINE, SEARCH_URL from the environment)');
      // What the environment left out is still passed on: Postgres as found.
      expect(run.env.DATABASE_URL).toMatch(/^postgres(ql)?:\/\//);
      expect(run.env.SEARCH_URL).toBe(running.SEARCH_URL);
    },
  );

  it.skipIf(running.SEARCH_ENGINE !== 'opensearch')(
    'given no service in the environment, then the file records what was found; given record (stack:up), the environment is recorded too',
    () => {
      const found = path.join(dir, 'found.env');
      ensureStackIn(found, {});
      const recorded = readEnvFile(found);
      expect(recorded.SEARCH_ENGINE).toBe('opensearch');
      expect(recorded.DATABASE_URL).toMatch(/^postgres(ql)?:\/\//);
      expect(recorded.SEARCH_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

      const up = path.join(dir, 'up.env');
      ensureStackIn(up, { SEARCH_URL: recorded.SEARCH_URL! }, true);
      expect(readFileSync(up, 'utf8')).toContain(`SEARCH_URL=${recorded.SEARCH_URL}\n`);
    },
  );
});
