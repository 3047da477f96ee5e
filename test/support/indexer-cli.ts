import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { repoRoot } from '@guest/config';
import type { TestRuntime } from './test-app.ts';

/** The indexer CLI as an operator starts it, on this test's own database, index prefix and Redis prefix. */
export function spawnIndexerCli(
  t: TestRuntime,
  args: string[],
  env: Record<string, string> = {},
  stdio: SpawnOptions['stdio'] = 'pipe',
): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'indexer/src/cli.ts', ...args], {
    cwd: repoRoot,
    env: {
      ...process.env,
      APP_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: t.config.DATABASE_URL,
      INDEX_PREFIX: t.config.INDEX_PREFIX,
      REDIS_KEY_PREFIX: t.config.REDIS_KEY_PREFIX,
      ...env,
    },
    stdio,
  });
}

/** Runs the indexer CLI to its end: exit code and what it printed. */
export function runIndexerCli(
  t: TestRuntime,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawnIndexerCli(t, args, env);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
