import { spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '@guest/config';
import { eventually, StopWaiting } from '../support/eventually.ts';

/**
 * The realtime app as its own process (`apps/realtime/src/main.ts`): it says what it runs on, and
 * it refuses to start, non-zero, when REALTIME_PORT is taken.
 */
const held: net.Server[] = [];
afterAll(() => held.forEach((s) => s.close()));

function run(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/realtime/src/main.ts'], {
    cwd: repoRoot,
    env: { ...process.env, APP_ENV: 'test', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, output: () => out };
}

describe('realtime app start', () => {
  it('refuses to start, exit 1 with the reason, when REALTIME_PORT is taken', { timeout: 90_000 }, async () => {
    const taken = await new Promise<net.Server>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => resolve(s));
    });
    held.push(taken);
    const port = (taken.address() as net.AddressInfo).port;
    const app = run({ REALTIME_PORT: String(port) });
    const code = await Promise.race([app.exited, new Promise((r) => setTimeout(() => r('still running'), 60_000))]);
    if (code === 'still running') app.child.kill('SIGKILL');
    expect(code, app.output()).toBe(1);
    expect(app.output()).toContain(
      `realtime gateway did not start: cannot listen on 127.0.0.1:${port}: the port is already in use`,
    );
  });

  it(
    'starts on Node.js 24+ with the ws transport, serves /v1/ws, and stops cleanly on SIGTERM',
    { timeout: 120_000 },
    async () => {
      const app = run({ REALTIME_PORT: '0' });
      const line = await eventually(
        'the gateway to say where it listens',
        () => {
          if (app.child.exitCode !== null) throw new StopWaiting(`exited ${app.child.exitCode}:\n${app.output()}`);
          return /realtime gateway on 127\.0\.0\.1:(\d+) \(\/v1\/ws, ws (\S+), Node\.js v(\d+)\./.exec(app.output());
        },
        { timeoutMs: 60_000 },
      );
      const [, port, , major] = line!;
      expect(Number(major)).toBeGreaterThanOrEqual(24);
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
      // An upgrade without credentials is answered by the gateway itself: 401 with the envelope.
      const refused = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request({
          host: '127.0.0.1',
          port: Number(port),
          path: '/v1/ws',
          headers: {
            connection: 'Upgrade',
            upgrade: 'websocket',
            'sec-websocket-version': '13',
            'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
          },
        });
        req.on('response', (res) => {
          let body = '';
          res.on('data', (d) => (body += d));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('upgrade', () => reject(new Error('upgraded without credentials')));
        req.on('error', reject);
        req.end();
      });
      expect(refused.status).toBe(401);
      expect(JSON.parse(refused.body).error.code).toBe('unauthorized');
      app.child.kill('SIGTERM');
      expect(await app.exited).toBe(0);
    },
  );
});
