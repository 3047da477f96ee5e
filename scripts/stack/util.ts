import { spawn, type SpawnOptions } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root (this file is scripts/stack/util.ts). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Git-ignored directory holding everything the stack script creates. */
export const dataDir = path.join(repoRoot, '.data');

export type Log = (line: string) => void;

export interface Ctx {
  log: Log;
  env: NodeJS.ProcessEnv;
}

/** `[stack] postgres    message` */
export function line(component: string, message: string): string {
  return `[stack] ${component.padEnd(10)} ${message}`;
}

export function since(t0: number): string {
  return `${((Date.now() - t0) / 1000).toFixed(1)}s`;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export function errorText(err: unknown): string {
  if (err instanceof Error) {
    // AggregateError (e.g. ECONNREFUSED on both ::1 and 127.0.0.1) carries an empty message
    const inner = (err as Error & { errors?: unknown[] }).errors;
    if (!err.message && Array.isArray(inner) && inner.length > 0) return errorText(inner[0]);
    return err.message || err.name;
  }
  return String(err);
}

export function ensureDir(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return dir;
}

export function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch {
    return undefined;
  }
}

export function writeJson(file: string, value: unknown): void {
  ensureDir(path.dirname(file));
  writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
}

export function isAlive(pid: number | undefined): pid is number {
  if (!pid || !Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  // a zombie (exited, not yet reaped) still answers signal 0
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return true; // no /proc (not Linux): trust kill(0)
  }
}

/** Command line of a process ('' when unknown), to check that a pid from a file is still ours. */
export function cmdline(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

/** True when `pid` is alive and (where /proc exists) its command line contains `marker`. */
export function isOurProcess(pid: number | undefined, marker: string): pid is number {
  if (!isAlive(pid)) return false;
  if (!existsSync('/proc/self/cmdline')) return true;
  return cmdline(pid).includes(marker);
}

export function readPid(file: string): number | undefined {
  try {
    const n = Number.parseInt(readFileSync(file, 'utf8').trim().split('\n')[0] ?? '', 10);
    return Number.isInteger(n) && n > 0 ? n : undefined;
  } catch {
    return undefined;
  }
}

/** Sends SIGTERM, waits, then SIGKILL. Resolves true when the process is gone. */
export async function terminate(pid: number, graceMs: number): Promise<boolean> {
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return !isAlive(pid);
  }
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await sleep(200);
  }
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
  await sleep(500);
  return !isAlive(pid);
}

/** Last `lines` lines of a text file ('' when missing). Reads at most the last 256 KiB. */
export function tail(file: string, lines = 40): string {
  try {
    const size = statSync(file).size;
    const fd = openSync(file, 'r');
    try {
      const len = Math.min(size, 256 * 1024);
      const buf = Buffer.alloc(len);
      readSync(fd, buf, 0, len, size - len);
      return buf
        .toString('utf8')
        .split('\n')
        .slice(-lines - 1)
        .join('\n')
        .trimEnd();
    } finally {
      closeSync(fd);
    }
  } catch {
    return '';
  }
}

export function indent(text: string, prefix = '    | '): string {
  return text
    .split('\n')
    .map((l) => prefix + l)
    .join('\n');
}

/** Resolves true when something accepts TCP connections on host:port. */
export function portOpen(port: number, host = '127.0.0.1', timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * Who listens on TCP `port` (Linux, as far as this user may read /proc): `pid N <program> in
 * <working directory>`, e.g. `pid 6095 java in /work/main/.data/opensearch/os3-n1`, so that a
 * service the script finds and uses as it is is named in its output, not only its port.
 */
export function listenerOf(port: number): string | undefined {
  const inodes = new Set<string>();
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const row of text.split('\n').slice(1)) {
      const f = row.trim().split(/\s+/);
      // local_address is ADDR:PORT in hex, st 0A is LISTEN, the 10th field the socket's inode
      if (f[1]?.endsWith(`:${hex}`) && f[3] === '0A' && f[9]) inodes.add(`socket:[${f[9]}]`);
    }
  }
  if (inodes.size === 0) return undefined;
  let pids: string[] = [];
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/.test(d));
  } catch {
    return undefined;
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue; // gone, or not ours to read
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      } catch {
        continue;
      }
      if (!inodes.has(target)) continue;
      const program = path.basename(cmdline(Number(pid)).split(' ')[0] ?? '') || '?';
      let cwd = '';
      try {
        cwd = ` in ${readlinkSync(`/proc/${pid}/cwd`)}`;
      } catch {
        /* not ours to read */
      }
      return `pid ${pid} ${program}${cwd}`;
    }
  }
  return undefined;
}

/** `; pid N program in DIR` for a log line, or nothing when the listener cannot be told. */
export const listenerNote = (port: number): string => {
  const who = listenerOf(port);
  return who ? `; ${who}` : '';
};

/** The listener of a URL on this machine (127.0.0.1, localhost, ::1), as `listenerNote`; else nothing. */
export function loopbackListenerNote(url: string): string {
  try {
    const u = new URL(url);
    const port = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
    return ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname) ? listenerNote(port) : '';
  } catch {
    return '';
  }
}

/** scheme://host:port of a URL, for a log line: whatever credentials it carries are left out. */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(not a URL)';
  }
}

/** `OpenSearch 3.8.0`, `Elasticsearch 9.5.3`: what answers at `url`, from its root document. */
export async function searchEngineName(url: string): Promise<string> {
  try {
    const res = await httpJson(`${url}/`, 'GET', undefined, 3000);
    const version = (res.body as { version?: { distribution?: string; number?: string } }).version;
    const name = version?.distribution === 'opensearch' ? 'OpenSearch' : version ? 'Elasticsearch' : 'a search engine';
    return version?.number ? `${name} ${version.number}` : name;
  } catch {
    return 'a search engine';
  }
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to completion, collecting its output (never throws for a non-zero exit). */
export function run(cmd: string, args: string[], opts: SpawnOptions = {}): Promise<RunResult> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let child;
    try {
      child = spawn(cmd, args, { ...opts, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (err) {
      resolve({ code: -1, stdout: '', stderr: errorText(err) });
      return;
    }
    child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', (err) => resolve({ code: -1, stdout, stderr: stderr + errorText(err) }));
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Finds an executable on PATH (plus the sbin directories, which non-login shells may lack). */
export function which(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dirs = [...(env.PATH ?? '').split(path.delimiter), '/usr/local/sbin', '/usr/sbin', '/sbin'];
  for (const dir of dirs) {
    if (!dir) continue;
    const candidate = path.join(dir, name);
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

/**
 * A lock file under .data so that two `up`/`down` runs (say `npm run dev` and the test runner)
 * do not start the same service twice. A lock whose owner process is gone is taken over.
 */
export async function withLock<T>(name: string, fn: () => Promise<T>, log: Log, timeoutMs = 15 * 60_000): Promise<T> {
  const file = path.join(ensureDir(dataDir), `${name}.lock`);
  const deadline = Date.now() + timeoutMs;
  let announced = false;
  for (;;) {
    try {
      const fd = openSync(file, 'wx');
      writeFileSync(fd, `${process.pid}\n`);
      closeSync(fd);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const owner = readPid(file);
      if (owner !== undefined && !isAlive(owner)) {
        rmSync(file, { force: true });
        continue;
      }
      if (owner === undefined) {
        // being written right now, or garbage: give the writer a moment, then take it over
        await sleep(300);
        if (readPid(file) === undefined) rmSync(file, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${file} (held by pid ${owner})`);
      if (!announced) {
        log(line('stack', `waiting for another stack command (pid ${owner}) to finish`));
        announced = true;
      }
      await sleep(500);
    }
  }
  try {
    return await fn();
  } finally {
    if (readPid(file) === process.pid) rmSync(file, { force: true });
  }
}

export interface HttpResult {
  status: number;
  body: unknown;
  /** response headers, names lower-cased */
  headers: http.IncomingHttpHeaders;
}

/**
 * A JSON request without keep-alive (fetch would keep the socket, and with it the event loop of a
 * short CLI run, alive for a few seconds). Rejects on network errors and time-outs.
 */
export function httpJson(url: string, method = 'GET', body?: unknown, timeoutMs = 5000): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = http.request(
      url,
      {
        method,
        agent: false,
        timeout: timeoutMs,
        headers: payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {},
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = JSON.parse(text);
          } catch {
            /* not JSON */
          }
          resolve({ status: res.statusCode ?? 0, body: parsed, headers: res.headers });
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`${method} ${url}: no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(payload);
  });
}
