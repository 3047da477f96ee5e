import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from './log.ts';
import { AccessLogController } from './server.ts';

/** A server with the logger and access line of `createServer`, and a route that answers `status`. */
async function serverLogging(level: string) {
  const lines: string[] = [];
  const app = Fastify({
    logger: loggerOptions(level, { write: (line: string) => void lines.push(line) }),
    logController: new AccessLogController(),
    genReqId: () => 'req-"1"',
  });
  app.get('/x/:id', async (req, reply) => {
    const status = Number((req.query as { status?: string }).status ?? 200);
    return reply.code(status).send({ ok: true });
  });
  // The general path of the same record, written beside the access line for comparison.
  app.addHook('onResponse', async (req, reply) => {
    req.log.info({ req, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  });
  await app.ready();
  return { app, lines };
}

/** The times of a line (they differ between two writes of one request) set to 0. */
const timeless = (line: string) =>
  line.replace(/"time":\d+/, '"time":0').replace(/"responseTime":[\d.e+-]+/, '"responseTime":0');

describe('the access line', () => {
  it('is the text pino writes for the same record, with the query values left out', async () => {
    const { app, lines } = await serverLogging('info');
    const res = await app.inject({
      method: 'GET',
      url: '/x/%22%C3%A9%22?email=someone%40example.com&token=abc&status=201',
      headers: { host: 'api.example"test', authorization: 'Bearer secret-token' },
    });
    expect(res.statusCode).toBe(201);
    expect(lines).toHaveLength(2);
    // Written in either order: the access line and the general path's line of the same record.
    const [one, other] = lines as [string, string];
    expect(timeless(one)).toBe(timeless(other));
    const record = JSON.parse(one);
    expect(record).toMatchObject({
      level: 30,
      reqId: 'req-"1"',
      req: {
        method: 'GET',
        url: '/x/%22%C3%A9%22?email=[redacted]&token=[redacted]&status=[redacted]',
        host: 'api.example"test',
      },
      res: { statusCode: 201 },
      msg: 'request completed',
    });
    expect(typeof record.responseTime).toBe('number');
    expect(typeof record.time).toBe('number');
    expect(one).not.toContain('secret-token');
    expect(one).not.toContain('someone');
    expect(one.endsWith('}\n')).toBe(true);
    await app.close();
  });

  it('is not written below the logger level', async () => {
    const { app, lines } = await serverLogging('warn');
    const res = await app.inject({ method: 'GET', url: '/x/1' });
    expect(res.statusCode).toBe(200);
    expect(lines).toEqual([]);
    await app.close();
  });
});

describe('the log on stdout', () => {
  it('keeps every line whole and in order, in Thai, Chinese and Russian, up to the exit', () => {
    // More than one block of the buffered destination, written in one go and then exiting at
    // once: what is not flushed by the exit is lost, a byte count in characters cuts lines.
    const script = `
      import pino from 'pino';
      import { loggerOptions } from './libs/http-kit/src/log.ts';
      const options = loggerOptions('info');
      const log = pino(options, options.stream);
      for (let i = 0; i < 3000; i++) log.info({ i, text: 'ภูเก็ต 普吉岛 Пхукет '.repeat(1 + (i % 7)) }, 'line');
      process.exit(0);
    `;
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(run.status, run.stderr).toBe(0);
    const lines = run.stdout.split('\n').filter(Boolean);
    expect(lines).toHaveLength(3000);
    lines.forEach((line, i) => {
      const record = JSON.parse(line) as { i: number; text: string };
      expect(record.i).toBe(i);
      expect(record.text).toBe('ภูเก็ต 普吉岛 Пхукет '.repeat(1 + (i % 7)));
    });
  });
});
