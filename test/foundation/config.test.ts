import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, repoRoot } from '@guest/config';

describe('config validated at start-up', () => {
  it('names every wrong setting', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', RATE_LIMIT_LOGIN_PER_MIN: '-1' });
      expect.unreachable('loadConfig accepted bad settings');
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const msg = (err as Error).message;
      expect(msg).toContain('PORT');
      expect(msg).toContain('DATABASE_URL');
      expect(msg).toContain('RATE_LIMIT_LOGIN_PER_MIN');
    }
  });

  it('refuses production without its own secrets', () => {
    expect(() => loadConfig({ APP_ENV: 'production' })).toThrow(/JWT_SECRET_WRITE: must be set in production/);
    const s = (c: string) => c.repeat(40);
    expect(() =>
      loadConfig({
        APP_ENV: 'production',
        JWT_SECRET_WRITE: s('a'),
        JWT_SECRET_READ: s('a'),
        JWT_SECRET_SOCKET: s('c'),
        CURSOR_SECRET: s('d'),
      }),
    ).toThrow(/each audience needs its own secret/);
  });

  it('stops the server process with a clear message and a non-zero exit', () => {
    const run = spawnSync('npx', ['tsx', 'apps/server/src/main.ts'], {
      cwd: repoRoot,
      env: { ...process.env, PORT: 'not-a-port' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(78);
    expect(run.stderr).toContain('PORT');
    expect(run.stderr).toContain('did not start');
  });
});
