import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { repoRoot } from '@guest/config';
import { createIsolatedEnv, type IsolatedEnv } from '../support/isolated-env.ts';
import { eventually, StopWaiting } from '../support/eventually.ts';
import { http } from '../support/http.ts';

/**
 * The real entry point (`apps/server/src/main.ts`) as a separate process: every app behind one
 * base URL, including the socket, and a clean exit on SIGTERM.
 */
let env: IsolatedEnv;
let child: ChildProcess;
let url: string;
let output = '';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

beforeAll(async () => {
  env = await createIsolatedEnv();
  const [port, realtimePort] = [await freePort(), await freePort()];
  url = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      APP_ENV: 'test',
      LOG_LEVEL: 'info',
      DATABASE_URL: env.config.DATABASE_URL,
      PORT: String(port),
      REALTIME_PORT: String(realtimePort),
      REDIS_KEY_PREFIX: env.config.REDIS_KEY_PREFIX,
      INDEX_PREFIX: env.config.INDEX_PREFIX,
      STORAGE_DIR: env.config.STORAGE_DIR,
      MAILBOX_DIR: env.config.MAILBOX_DIR,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  await eventually(
    'the server to answer /health',
    async () => {
      if (child.exitCode !== null) throw new StopWaiting(`it exited with ${child.exitCode}:\n${output}`);
      return (await fetch(`${url}/health`)).status > 0;
    },
    { timeoutMs: 60_000, intervalMs: 250 },
  );
});

afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await env?.close();
});

describe('one base URL', () => {
  it('serves the write API, the read API, health and the OpenAPI document together', async () => {
    const doc = await http(url, 'GET', '/v1/openapi.json');
    expect(doc.status).toBe(200);
    const paths = Object.keys(doc.body.paths);
    expect(paths).toContain('/v1/auth/login');
    expect(paths).toContain('/v1/i18n');
    const health = await http(url, 'GET', '/health');
    expect(health.body, health.text).toMatchObject({ status: 'ok' });
    expect(health.status).toBe(200);
  });

  it('serves /livez, /readyz and /metrics once for every app, open sockets included', async () => {
    expect((await http(url, 'GET', '/livez')).status).toBe(200);
    const ready = await http(url, 'GET', '/readyz');
    expect(ready.status, ready.text).toBe(200);
    const metrics = await http(url, 'GET', '/metrics');
    expect(metrics.status).toBe(200);
    expect(metrics.text).toMatch(/^realtime_open_sockets [0-9]+$/m);
    expect(metrics.text).toMatch(/^# TYPE http_requests_total counter$/m);
    const doc = await http(url, 'GET', '/v1/openapi.json');
    for (const p of ['/livez', '/readyz', '/health']) expect(Object.keys(doc.body.paths)).toContain(p);
    // Prometheus text is for scrapers (README, Operators), not part of the JSON client document.
    expect(Object.keys(doc.body.paths)).not.toContain('/metrics');
  });

  it('passes /v1/ws upgrades through to the gateway', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(`${url.replace('http', 'ws')}/v1/ws`);
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => reject(new Error('opened without credentials')));
      ws.on('error', reject);
    });
    expect(status).toBe(401);
  });

  it('logs JSON lines that carry the request id', async () => {
    const res = await http(url, 'GET', '/v1/no-such-thing', { headers: { 'x-request-id': 'e2e-trace-42' } });
    expect(res.status).toBe(404);
    const line = await eventually(
      'the log line of the request',
      () => output.split('\n').find((l) => l.includes('e2e-trace-42')),
      { timeoutMs: 5_000, intervalMs: 50 },
    ).catch(() => undefined);
    expect(line, output.slice(-2000)).toBeTruthy();
    expect(JSON.parse(line!).reqId).toBe('e2e-trace-42');
  });

  it('exits cleanly on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
