import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, readEnvFile, repoRoot, SECRET_NAMES, secretsEnvFile } from '@guest/config';

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
    expect(() => loadConfig({ APP_ENV: 'production' })).toThrow(/JWT_SECRET: must be set/);
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

  // Issue 14 point 7: a server reachable from elsewhere brings its own secrets, whatever APP_ENV says.
  const given = (c: string) => c.repeat(40);
  const allGiven = {
    JWT_SECRET: given('a'),
    CURSOR_SECRET: given('d'),
    IDEMPOTENCY_SECRET: given('e'),
    PUBLIC_BASE_URL: 'https://api.guest.example',
  };
  const problemsOf = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as ConfigError).problems;
    }
    return [];
  };

  it('refuses production without its own secrets: missing, shorter than 32 bytes, or shared', () => {
    const missing = problemsOf({ APP_ENV: 'production' });
    for (const name of SECRET_NAMES) expect(missing).toContainEqual(expect.stringMatching(`^${name}: must be set`));
    expect(problemsOf({ APP_ENV: 'production', ...allGiven, CURSOR_SECRET: 'x'.repeat(31) })).toEqual([
      'CURSOR_SECRET: must be at least 32 bytes',
    ]);
    expect(problemsOf({ APP_ENV: 'production', ...allGiven, CURSOR_SECRET: given('a') })).toEqual([
      'CURSOR_SECRET: must differ from JWT_SECRET (each purpose needs its own secret)',
    ]);
    expect(problemsOf({ APP_ENV: 'production', ...allGiven, IDEMPOTENCY_SECRET: given('d') })).toHaveLength(1);
    expect(problemsOf({ APP_ENV: 'production', ...allGiven })).toEqual([]);
  });

  it('refuses the development secrets on a non-loopback HOST whatever APP_ENV says', () => {
    for (const APP_ENV of ['development', 'test']) {
      for (const HOST of ['0.0.0.0', '::', '192.0.2.10']) {
        expect(problemsOf({ APP_ENV, HOST }), `${APP_ENV} ${HOST}`).toContainEqual(
          expect.stringMatching(/^JWT_SECRET: must be set/),
        );
        expect(problemsOf({ APP_ENV, HOST, ...allGiven })).toEqual([]);
      }
      for (const HOST of ['127.0.0.1', 'localhost', '::1']) expect(problemsOf({ APP_ENV, HOST })).toEqual([]);
    }
  });

  it('in development gives each purpose its own random secret, kept in .data/secrets.env for every process', () => {
    const a = loadConfig({ APP_ENV: 'development', HOST: '127.0.0.1' });
    const values = SECRET_NAMES.map((n) => a[n]);
    expect(new Set(values).size).toBe(SECRET_NAMES.length);
    for (const v of values) expect(Buffer.byteLength(v)).toBeGreaterThanOrEqual(32);
    const file = readEnvFile(secretsEnvFile());
    for (const n of SECRET_NAMES) expect(a[n]).toBe(file[n]);
    const b = loadConfig({ APP_ENV: 'test' });
    expect(SECRET_NAMES.map((n) => b[n])).toEqual(values);
    // The file is the checkout's own: git ignores it.
    const ignored = spawnSync('git', ['check-ignore', '-q', secretsEnvFile()], { cwd: repoRoot });
    expect(ignored.status).toBe(0);
  });

  // `npm start`'s own command; loading the server's modules took over 60 s once on a loaded CI machine.
  it('stops the server process with a clear message and a non-zero exit', { timeout: 150_000 }, () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
      cwd: repoRoot,
      env: { ...process.env, PORT: 'not-a-port' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.status).toBe(78);
    expect(run.stderr).toContain('PORT');
    expect(run.stderr).toContain('did not start');
  });
});

describe('search engine settings (SEARCH_ENGINE, SEARCH_URL, OPENSEARCH_URL)', () => {
  it('defaults to OpenSearch; SEARCH_URL names the engine, OPENSEARCH_URL stands for it when unset', () => {
    expect(loadConfig({}).SEARCH_ENGINE).toBe('opensearch');
    expect(loadConfig({ SEARCH_URL: 'http://b:2' }).SEARCH_URL).toBe('http://b:2');
    expect(loadConfig({ OPENSEARCH_URL: 'http://a:1' }).SEARCH_URL).toBe('http://a:1');
    expect(loadConfig({ SEARCH_URL: 'http://b:2', OPENSEARCH_URL: 'http://a:1' }).SEARCH_URL).toBe('http://b:2');
  });

  it('an override of the old name wins over a SEARCH_URL from the environment, as overrides always do', () => {
    expect(loadConfig({ SEARCH_URL: 'http://b:2' }, { OPENSEARCH_URL: 'http://c:3' }).SEARCH_URL).toBe('http://c:3');
  });

  it('for Elasticsearch, OPENSEARCH_URL is never used: SEARCH_URL, else the stack port 9250', () => {
    const es = loadConfig({ SEARCH_ENGINE: 'elasticsearch', OPENSEARCH_URL: 'http://a:1', SEARCH_URL: undefined });
    expect(es.SEARCH_ENGINE).toBe('elasticsearch');
    expect(es.SEARCH_URL).toBe('http://127.0.0.1:9250');
    expect(loadConfig({ SEARCH_ENGINE: 'elasticsearch', SEARCH_URL: 'http://e:9' }).SEARCH_URL).toBe('http://e:9');
  });

  it("a source's SEARCH_URL for the other engine is passed over (a stack file written for OpenSearch)", () => {
    const cfg = loadConfig(
      { SEARCH_ENGINE: 'opensearch', SEARCH_URL: 'http://os:1' },
      { SEARCH_ENGINE: 'elasticsearch' },
    );
    expect(cfg.SEARCH_URL).toBe('http://127.0.0.1:9250');
  });

  it('refuses an engine it has no adapter for', () => {
    expect(() => loadConfig({ SEARCH_ENGINE: 'solr' })).toThrow(/SEARCH_ENGINE/);
  });
});
