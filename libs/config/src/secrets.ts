import { randomBytes } from 'node:crypto';
import { appendFileSync, existsSync, linkSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { readEnvFile, repoRoot } from './env-file.ts';

/** Every signing or encryption secret; each purpose has its own, so one leak opens one door. */
export const SECRET_NAMES = ['JWT_SECRET', 'CURSOR_SECRET', 'IDEMPOTENCY_SECRET'] as const;
export type SecretName = (typeof SECRET_NAMES)[number];

/** RFC 7518 3.2: an HS256 key has at least as many bits as the hash (256). */
export const SECRET_MIN_BYTES = 32;

export function secretsEnvFile(): string {
  return path.join(repoRoot, '.data', 'secrets.env');
}

export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h === '::1') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  return /^::ffff:127\./.test(h);
}

/**
 * A server reachable from other machines must bring its own secrets, whatever APP_ENV says: a
 * development value on a listening host is as good as none.
 */
export function secretsMustBeGiven(appEnv: string | undefined, host: string | undefined): boolean {
  return appEnv === 'production' || !isLoopbackHost(host ?? '127.0.0.1');
}

/**
 * The development secrets of this checkout: random, one per purpose, made the first time and
 * kept in the git-ignored `.data/secrets.env`, so that every process of the checkout (server,
 * workers, CLI, tests) signs and verifies with the same keys and no two checkouts share them.
 */
export function developmentSecrets(file = secretsEnvFile()): Record<SecretName, string> {
  let current = readEnvFile(file);
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    // Several processes may start at once: the file is made aside and linked into place, which
    // fails if another process won the race; then its secrets are the ones read below.
    const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    writeFileSync(tmp, render(fresh(SECRET_NAMES)), { mode: 0o600 });
    try {
      linkSync(tmp, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      rmSync(tmp, { force: true });
    }
    current = readEnvFile(file);
  }
  const missing = SECRET_NAMES.filter((n) => !current[n]);
  if (missing.length) {
    appendFileSync(file, render(fresh(missing)).replace(/^#.*\n/, ''), { mode: 0o600 });
    current = readEnvFile(file);
  }
  return Object.fromEntries(SECRET_NAMES.map((n) => [n, current[n]!])) as Record<SecretName, string>;
}

function fresh(names: readonly SecretName[]): Record<string, string> {
  return Object.fromEntries(names.map((n) => [n, randomBytes(32).toString('base64url')]));
}

function render(values: Record<string, string>): string {
  return (
    '# Development secrets of this checkout, made once at random (libs/config/src/secrets.ts); never for production.\n' +
    Object.entries(values)
      .map(([k, v]) => `${k}=${v}`)
      .join('\n') +
    '\n'
  );
}

/** What is wrong with the secrets of a server that must bring its own (missing, short, shared). */
export function givenSecretProblems(values: Partial<Record<SecretName, unknown>>): string[] {
  const problems: string[] = [];
  const seen = new Map<string, SecretName>();
  for (const name of SECRET_NAMES) {
    const v = values[name];
    if (typeof v !== 'string' || v === '') {
      problems.push(`${name}: must be set (production, or a server listening beyond loopback)`);
      continue;
    }
    if (Buffer.byteLength(v, 'utf8') < SECRET_MIN_BYTES) {
      problems.push(`${name}: must be at least ${SECRET_MIN_BYTES} bytes`);
    }
    const twin = seen.get(v);
    if (twin) problems.push(`${name}: must differ from ${twin} (each purpose needs its own secret)`);
    else seen.set(v, name);
  }
  return problems;
}
