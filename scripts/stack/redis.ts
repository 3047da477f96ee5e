import { Redis } from 'ioredis';
import path from 'node:path';
import {
  type Ctx,
  dataDir,
  ensureDir,
  errorText,
  indent,
  isOurProcess,
  line,
  listenerNote,
  readPid,
  run,
  since,
  sleep,
  tail,
  terminate,
  which,
} from './util.ts';

const MACHINE_URL = 'redis://127.0.0.1:6379';
const redisDir = path.join(dataDir, 'redis');
const pidFile = path.join(redisDir, 'redis.pid');
const logFile = path.join(redisDir, 'redis.log');

function ownPort(ctx: Ctx): number {
  return Number(ctx.env.STACK_REDIS_PORT ?? 63799);
}

async function ping(url: string): Promise<{ ok: boolean; message: string }> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 2000,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const pong = await client.ping();
    return { ok: pong === 'PONG', message: pong };
  } catch (err) {
    return { ok: false, message: errorText(err) };
  } finally {
    client.disconnect();
  }
}

/**
 * Redis in this order: REDIS_URL; the redis-server this script started before; the machine's
 * Redis on 127.0.0.1:6379; a newly started, daemonized redis-server with its data in .data/redis.
 */
export async function ensureRedis(ctx: Ctx): Promise<string> {
  const t0 = Date.now();
  const log = (m: string): void => ctx.log(line('redis', m));

  const fromEnv = ctx.env.REDIS_URL;
  if (fromEnv) {
    const p = await ping(fromEnv);
    if (!p.ok) throw new Error(`REDIS_URL=${fromEnv} does not answer PING: ${p.message}`);
    log(`found REDIS_URL, healthy (${since(t0)})`);
    return fromEnv;
  }

  const port = ownPort(ctx);
  const ownUrl = `redis://127.0.0.1:${port}`;
  if (isOurProcess(readPid(pidFile), 'redis-server') && (await ping(ownUrl)).ok) {
    log(`found redis-server started by stack on 127.0.0.1:${port}, healthy (${since(t0)})`);
    return ownUrl;
  }

  const machine = await ping(MACHINE_URL);
  if (machine.ok) {
    log(`found machine Redis on 127.0.0.1:6379 (not started by stack${listenerNote(6379)}), healthy (${since(t0)})`);
    return MACHINE_URL;
  }
  log(`nothing answers PING on 127.0.0.1:6379 (${machine.message})`);

  const bin = which('redis-server', ctx.env);
  if (!bin) {
    throw new Error(
      'redis-server is not installed and no Redis answers on 127.0.0.1:6379: ' +
        'install it (apt-get install redis-server) or set REDIS_URL',
    );
  }
  log(`starting ${bin} on 127.0.0.1:${port} (data in ${path.relative(process.cwd(), redisDir) || redisDir})`);
  ensureDir(redisDir);
  const r = await run(
    bin,
    [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--daemonize',
      'yes',
      '--dir',
      redisDir,
      '--pidfile',
      pidFile,
      '--logfile',
      logFile,
      '--save',
      '60 1',
      '--appendonly',
      'no',
    ],
    { detached: true, cwd: redisDir },
  );
  if (r.code !== 0) {
    throw new Error(
      `redis-server failed (exit ${r.code}): ${(r.stderr || r.stdout).trim()}\n${indent(tail(logFile, 20))}`,
    );
  }
  const deadline = Date.now() + 20_000;
  for (;;) {
    const p = await ping(ownUrl);
    if (p.ok) break;
    if (Date.now() > deadline) {
      throw new Error(
        `redis-server did not answer PING on ${port} within 20s: ${p.message}\n${indent(tail(logFile, 20))}`,
      );
    }
    await sleep(200);
  }
  log(`healthy (${since(t0)}) ${ownUrl}`);
  return ownUrl;
}

/** Stops the redis-server this script started (its pid file); the machine's Redis is left alone. */
export async function stopRedis(ctx: Ctx): Promise<void> {
  const log = (m: string): void => ctx.log(line('redis', m));
  const pid = readPid(pidFile);
  if (!isOurProcess(pid, 'redis-server')) {
    log('nothing to stop (no redis-server started by stack is running)');
    return;
  }
  const t0 = Date.now();
  const gone = await terminate(pid, 20_000); // SIGTERM: redis saves its snapshot and exits
  if (!gone) throw new Error(`redis-server (pid ${pid}) did not stop`);
  log(`stopped redis-server pid ${pid} (${since(t0)})`);
}

export async function redisStatus(ctx: Ctx, current: string | undefined): Promise<string> {
  const ownRunning = isOurProcess(readPid(pidFile), 'redis-server');
  const ownUrl = `redis://127.0.0.1:${ownPort(ctx)}`;
  const url = ctx.env.REDIS_URL ?? current ?? (ownRunning ? ownUrl : MACHINE_URL);
  const p = await ping(url);
  const owner = ctx.env.REDIS_URL ? 'REDIS_URL' : url === ownUrl ? 'redis-server started by stack' : 'machine';
  const extra = ownRunning && url !== ownUrl ? `; stack's redis-server also running on ${ownPort(ctx)}` : '';
  return line('redis', `${url}  ${p.ok ? 'answers' : `DOWN (${p.message})`}  [${owner}${extra}]`);
}
