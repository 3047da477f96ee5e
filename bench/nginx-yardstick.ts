import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BenchError } from './lib.ts';

/**
 * nginx as a plain reverse proxy in front of the engine, for `bench:compare`: the engine requests
 * go through it unchanged, on kept-alive upstream connections, with one worker process (the
 * read API is one process too). It is the leanest thing that can stand between clients and the
 * engine, written in C and event-driven: what it costs on these cores is what any layer in front
 * of the engine costs at least, whatever it is written in.
 */
export interface Nginx {
  url: string;
  stop(): Promise<void>;
}

/** The nginx binary, from PATH or Debian's place for it; null when nginx is not installed. */
export function findNginx(): string | null {
  for (const candidate of ['nginx', '/usr/sbin/nginx']) {
    const probe = spawnSync(candidate, ['-v'], { stdio: 'ignore' });
    if (!probe.error && probe.status === 0) return candidate;
  }
  return null;
}

export async function startNginx(o: { bin: string; port: number; engineUrl: string; dir: string }): Promise<Nginx> {
  const engine = new URL(o.engineUrl);
  if (engine.username || engine.password || engine.protocol !== 'http:') {
    throw new BenchError('the nginx yardstick proxies a plain-HTTP engine without credentials; pass --no-nginx');
  }
  fs.mkdirSync(o.dir, { recursive: true });
  const conf = path.join(o.dir, 'nginx.conf');
  const errorLog = path.join(o.dir, 'error.log');
  fs.writeFileSync(
    conf,
    [
      'worker_processes 1;',
      'daemon off;',
      `pid ${path.join(o.dir, 'nginx.pid')};`,
      `error_log ${errorLog} warn;`,
      'events { worker_connections 4096; }',
      'http {',
      '  access_log off;',
      // Bodies and answers stay in memory: a temporary file would time the disk.
      `  client_body_temp_path ${path.join(o.dir, 'body')};`,
      `  proxy_temp_path ${path.join(o.dir, 'proxy')};`,
      '  client_body_buffer_size 1m;',
      '  client_max_body_size 10m;',
      '  proxy_buffer_size 64k;',
      '  proxy_buffers 32 64k;',
      '  proxy_busy_buffers_size 128k;',
      '  proxy_max_temp_file_size 0;',
      `  upstream engine { server ${engine.host}; keepalive 128; }`,
      '  server {',
      `    listen 127.0.0.1:${o.port};`,
      '    location / {',
      '      proxy_pass http://engine;',
      '      proxy_http_version 1.1;',
      '      proxy_set_header Connection "";',
      '    }',
      '  }',
      '}',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn(o.bin, ['-p', o.dir, '-c', conf], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${o.port}`;
  const stop = async () => {
    if (child.exitCode !== null) return;
    child.kill('SIGQUIT'); // nginx's graceful stop
    await Promise.race([once(child, 'exit'), sleep(10_000)]);
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) {
      throw new BenchError(`nginx exited (${child.exitCode}): see ${errorLog}`);
    }
    try {
      const res = await fetch(`${url}/`);
      await res.arrayBuffer();
      if (res.ok) return { url, stop };
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  await stop();
  throw new BenchError(`nginx did not answer on ${url} within 10 s: see ${errorLog}`);
}
