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

  it('refuses production without its own secrets and without PUBLIC_BASE_URL', () => {
    expect(() => loadConfig({ APP_ENV: 'production' })).toThrow(/JWT_SECRET: must be set in production/);
    expect(() => loadConfig({ APP_ENV: 'production' })).toThrow(/PUBLIC_BASE_URL: must be set in production/);
    const s = (c: string) => c.repeat(40);
    const production = {
      APP_ENV: 'production',
      JWT_SECRET: s('a'),
      CURSOR_SECRET: s('b'),
      IDEMPOTENCY_SECRET: s('c'),
      PUBLIC_BASE_URL: 'https://api.guest.example/',
    };
    expect(loadConfig(production).PUBLIC_BASE_URL).toBe('https://api.guest.example');
    expect(() => loadConfig({ ...production, PUBLIC_BASE_URL: 'api.guest.example' })).toThrow(/PUBLIC_BASE_URL/);
  });

  it('names the withdrawn per-app token secrets instead of ignoring them (one JWT_SECRET, DESIGN G5b)', () => {
    for (const name of ['JWT_SECRET_WRITE', 'JWT_SECRET_READ', 'JWT_SECRET_SOCKET']) {
      expect(() => loadConfig({ [name]: 'x'.repeat(40) })).toThrow(new RegExp(`${name}: no longer read; .*JWT_SECRET`));
    }
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
