import path from 'node:path';
import { DEV_SECRET, envSchema, type Env } from './schema.ts';
import { readEnvFile, repoRoot, stackEnvFile } from './env-file.ts';
import { exitUnlessSupportedRuntime } from './runtime.ts';

export { repoRoot, readEnvFile, stackEnvFile };
export { envSchema };
export { exitUnlessSupportedRuntime, minimumNode, nodeAtLeast, runtimeProblem } from './runtime.ts';
export type Config = Env;

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const SECRETS = [
  'JWT_SECRET_WRITE',
  'JWT_SECRET_READ',
  'JWT_SECRET_SOCKET',
  'CURSOR_SECRET',
  'IDEMPOTENCY_SECRET',
] as const;

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

  const parsed = envSchema.safeParse(merged);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`));
  }
  const cfg = parsed.data;
  const problems: string[] = [];
  if (cfg.APP_ENV === 'production') {
    for (const name of SECRETS) {
      if (cfg[name] === DEV_SECRET) problems.push(`${name}: must be set in production`);
    }
    const audienceSecrets = new Set([cfg.JWT_SECRET_WRITE, cfg.JWT_SECRET_READ, cfg.JWT_SECRET_SOCKET]);
    if (audienceSecrets.size < 3) {
      problems.push('JWT_SECRET_WRITE, JWT_SECRET_READ, JWT_SECRET_SOCKET: each audience needs its own secret');
    }
  }
  if (cfg.SEARCH_LIMIT_DEFAULT > cfg.SEARCH_LIMIT_MAX) {
    problems.push('SEARCH_LIMIT_DEFAULT: must not exceed SEARCH_LIMIT_MAX');
  }
  if (cfg.CALENDAR_DAYS_DEFAULT > cfg.CALENDAR_DAYS_MAX) {
    problems.push('CALENDAR_DAYS_DEFAULT: must not exceed CALENDAR_DAYS_MAX');
  }
  if (problems.length) throw new ConfigError(problems);

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
