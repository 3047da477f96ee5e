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
