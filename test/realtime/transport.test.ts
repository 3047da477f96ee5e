import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, repoRoot } from '@guest/config';
import { startGateway, TransportLoadError } from '@guest/realtime';
import { loadTransport } from '@guest/realtime/transport';

/**
 * The gateway's transport counts as loaded only when it really serves: a handshake and an echoed
 * frame on a loopback port, by Node's own WebSocket client. These tests run that same check on
 * the real installation and on two broken ones laid out on disk (a library whose loading throws,
 * as a native binary built for another glibc does; one that loads but never answers, as the
 * silent fallback of the uWebSockets.js build used before did).
 */
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A directory whose `node_modules/ws` is the given source; returns the file to resolve from. */
function installation(indexJs: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'guest-transport-'));
  dirs.push(dir);
  const ws = path.join(dir, 'node_modules', 'ws');
  mkdirSync(ws, { recursive: true });
  writeFileSync(
    path.join(ws, 'package.json'),
    JSON.stringify({ name: 'ws', version: '0.0.0-broken', main: 'index.js' }),
  );
  writeFileSync(path.join(ws, 'index.js'), indexJs);
  return path.join(dir, 'probe.js');
}

const installedWs = (
  JSON.parse(readFileSync(createRequire(path.join(repoRoot, 'package.json')).resolve('ws/package.json'), 'utf8')) as {
    version: string;
  }
).version;

describe('socket transport load check', () => {
  it('loads the installed ws and proves it with a real handshake on this Node.js', async () => {
    const transport = await loadTransport();
    expect(transport.name).toBe('ws');
    expect(transport.version).toBe(installedWs);
    // What the check did, done again by hand: a server of this transport answers Node's client.
    const server = await transport.listen<{ n: number }>({
      host: '127.0.0.1',
      port: 0,
      path: '/x',
      maxPayload: 1024,
      idleTimeoutS: 10,
      handlers: {
        upgrade: async (req) => ({ accept: { n: Number(req.query.get('n')) } }),
        open: (ws) => ws.send(`n=${ws.data.n}`),
        message: () => {},
        close: () => {},
        http: () => ({ status: 404, body: '' }),
      },
    });
    const got = await new Promise<string>((resolve, reject) => {
      const c = new WebSocket(`ws://127.0.0.1:${server.port}/x?n=7`);
      c.addEventListener('message', (ev) => {
        resolve(String(ev.data));
        c.close();
      });
      c.addEventListener('error', () => reject(new Error('handshake failed')));
    });
    await server.close();
    expect(got).toBe('n=7');
  });

  it('refuses a library whose loading throws (a native build for another glibc)', async () => {
    const from = installation(
      'throw new Error("/lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.38\' not found (required by uws_linux_x64_137.node)");',
    );
    const err = await loadTransport({ from }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransportLoadError);
    expect((err as Error).message).toMatch(/could not be loaded: .*GLIBC_2\.38/);
  });

  it('refuses a library that loads but never answers a handshake (a silent fallback)', async () => {
    const from = installation(`
      class WebSocketServer {
        constructor() { this.clients = new Set(); }
        handleUpgrade() {}
        close() {}
      }
      module.exports = { WebSocketServer };
    `);
    const err = await loadTransport({ from }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransportLoadError);
    expect((err as Error).message).toMatch(/ws 0\.0\.0-broken\) loaded but did not serve a WebSocket/);
  });

  it('keeps the gateway from starting, and from listening, when its transport did not load', async () => {
    const from = installation('module.exports = {};');
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const config = loadConfig({ ...process.env, APP_ENV: 'test' });
    const started = startGateway({
      config,
      authenticate: async () => ({ status: 401, code: 'unauthorized', message: 'not used', details: {} }),
      port,
      host: '127.0.0.1',
      transport: loadTransport({ from }),
    });
    await expect(started).rejects.toThrow(/has no WebSocketServer export/);
    // Nothing answers on the port it was given.
    const answered = await new Promise<boolean>((resolve) => {
      const c = net.connect(port, '127.0.0.1', () => {
        c.destroy();
        resolve(true);
      });
      c.on('error', () => resolve(false));
    });
    expect(answered).toBe(false);
  });
});
