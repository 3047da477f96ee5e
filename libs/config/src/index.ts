import path from 'node:path';
import { envSchema, type Env } from './schema.ts';
import { readEnvFile, repoRoot, stackEnvFile } from './env-file.ts';
import { exitUnlessSupportedRuntime } from './runtime.ts';
import {
  SECRET_NAMES,
  developmentSecrets,
  givenSecretProblems,
  isLoopbackHost,
  secretsEnvFile,
  secretsMustBeGiven,
} from './secrets.ts';

export { repoRoot, readEnvFile, stackEnvFile, secretsEnvFile, isLoopbackHost, secretsMustBeGiven, SECRET_NAMES };
export { envSchema };
export { exitUnlessSupportedRuntime, minimumNode, nodeAtLeast, runtimeProblem } from './runtime.ts';
export type Config = Env;

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Settings that are no longer read; naming one is a mistake worth a clear message, not silence. */
const WITHDRAWN: Record<string, string> = {
  CAPTCHA_POW_BITS:
    'the proof of work is PBKDF2 now (issue 32 point 2): set CAPTCHA_POW_COST, CAPTCHA_POW_COUNTERS, CAPTCHA_POW_MAX_LEVEL',
  JWT_SECRET_WRITE: 'one access token serves the whole guest API now (DESIGN G5b): set JWT_SECRET',
  JWT_SECRET_READ: 'one access token serves the whole guest API now (DESIGN G5b): set JWT_SECRET',
  JWT_SECRET_SOCKET: 'one access token serves the whole guest API now (DESIGN G5b): set JWT_SECRET',
};

/**
 * Builds the configuration from the environment, the stack file and explicit overrides
 * (overrides win, then the environment, then `.data/stack.env`). Throws a ConfigError that
 * names every wrong setting, so a process can refuse to start with one clear message.
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  overrides: Partial<Record<keyof Env, string | number | boolean>> = {},
): Config {
  const merged: Record<string, unknown> = {};
  const layers = [readEnvFile(stackEnvFile()), env, overrides] as Array<Record<string, unknown>>;
  // Each source's search URL, with the engine it is for when the source says: its SEARCH_URL, else
  // its OPENSEARCH_URL (so an override of the old name beats the stack file's SEARCH_URL). A URL
  // for the other engine is passed over: a stack file written for OpenSearch must not point the
  // Elasticsearch client at it.
  const searchUrls: Array<{ url: string; engine: string | undefined }> = [];
  for (const [i, layer] of layers.entries()) {
    // An empty variable counts as unset; an empty override is meant.
    const set = Object.fromEntries(
      Object.entries(layer).filter(([, v]) => v !== undefined && (v !== '' || i === 2)),
    ) as Record<string, unknown>;
    for (const [k, v] of Object.entries(set)) merged[k] = String(v);
    const engineOf = set.SEARCH_ENGINE === undefined ? undefined : String(set.SEARCH_ENGINE);
    if (set.SEARCH_URL !== undefined) searchUrls.push({ url: String(set.SEARCH_URL), engine: engineOf });
    else if (set.OPENSEARCH_URL !== undefined)
      searchUrls.push({ url: String(set.OPENSEARCH_URL), engine: 'opensearch' });
  }
  const engine = String(merged.SEARCH_ENGINE ?? 'opensearch');
  const chosen = searchUrls.findLast((u) => u.engine === undefined || u.engine === engine);
  if (chosen) merged.SEARCH_URL = chosen.url;
  else if (engine === 'elasticsearch') merged.SEARCH_URL = 'http://127.0.0.1:9250';
  else delete merged.SEARCH_URL;

  // Decided on the raw values, before defaults: a production server, or one listening beyond
  // loopback, never falls back to the checkout's development secrets.
  const mustGive = secretsMustBeGiven(merged.APP_ENV as string | undefined, merged.HOST as string | undefined);
  const secretProblems = mustGive ? givenSecretProblems(merged) : [];
  if (!mustGive && SECRET_NAMES.some((n) => merged[n] === undefined)) {
    const dev = developmentSecrets();
    for (const n of SECRET_NAMES) merged[n] ??= dev[n];
  }

  // With secrets missing, the rest is still checked (placeholders stand in for them), so one
  // start-up names every wrong setting at once.
  const checked = secretProblems.length
    ? { ...merged, ...Object.fromEntries(SECRET_NAMES.map((n, i) => [n, `unset-secret-${i}`.padEnd(40, '-')])) }
    : merged;
  const parsed = envSchema.safeParse(checked);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw new ConfigError([...secretProblems, ...issues]);
  }
  const cfg = parsed.data;
  const problems: string[] = [...secretProblems];
  if (cfg.ACCESS_TOKEN_TTL_S > cfg.ACCESS_TOKEN_MAX_LIFETIME_S) {
    problems.push('ACCESS_TOKEN_TTL_S: must not exceed ACCESS_TOKEN_MAX_LIFETIME_S (its own tokens would be refused)');
  }
  if (cfg.APP_ENV === 'production') {
    // DESIGN section 6: absolute URLs (avatars, map resources, the origin of /v1/nodes) come
    // from here, never from a client's Host header.
    if (!cfg.PUBLIC_BASE_URL) problems.push('PUBLIC_BASE_URL: must be set in production');
    if (cfg.CORS_ORIGINS.includes('*')) {
      problems.push("CORS_ORIGINS: * is refused in production; list the web clients' exact origins");
    }
  }
  for (const [name, why] of Object.entries(WITHDRAWN)) {
    if (merged[name] !== undefined) problems.push(`${name}: no longer read; ${why}`);
  }
  if (cfg.SEARCH_LIMIT_DEFAULT > cfg.SEARCH_LIMIT_MAX) {
    problems.push('SEARCH_LIMIT_DEFAULT: must not exceed SEARCH_LIMIT_MAX');
  }
  if (cfg.CALENDAR_DAYS_DEFAULT > cfg.CALENDAR_DAYS_MAX) {
    problems.push('CALENDAR_DAYS_DEFAULT: must not exceed CALENDAR_DAYS_MAX');
  }
  if (problems.length) throw new ConfigError(problems);

  if (cfg.PUBLIC_BASE_URL) cfg.PUBLIC_BASE_URL = cfg.PUBLIC_BASE_URL.replace(/\/+$/, '');
  // Relative directories are taken from the repository root, not from the caller's cwd.
  cfg.STORAGE_DIR = path.resolve(repoRoot, cfg.STORAGE_DIR);
  cfg.MAILBOX_DIR = path.resolve(repoRoot, cfg.MAILBOX_DIR);
  return cfg;
}

/** For entry points: refuse an unsupported Node.js, then load or print the problems and exit non-zero. */
export function loadConfigOrExit(): Config {
  exitUnlessSupportedRuntime();
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\nThe service did not start.\n`);
      process.exit(78);
    }
    throw err;
  }
}
