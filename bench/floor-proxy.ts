import fs from 'node:fs';
import http from 'node:http';
import { Pool } from 'undici';

/**
 * The least any Node.js layer in front of the engine does, as a yardstick for the read API in
 * `bench:compare`: accept an HTTP request, make the engine requests the API made for that very
 * path (captured, replayed in order on kept-alive connections), send the last answer back as it
 * came. No validation, query building, logging, metrics or rate limit. Whatever separates the API
 * from the engine beyond this is the API's own; what separates this from the engine is the price
 * of one more process and two more HTTP hops on the same cores.
 *
 * `tsx bench/floor-proxy.ts <port> <engine url> <captured.json>` (a JSON object: API path to
 * `[{method, path, body}]`); prints `listening` when ready.
 */
interface Captured {
  method: string;
  path: string;
  body: string;
}

const [portArg, engineUrl, file] = process.argv.slice(2);
if (!portArg || !engineUrl || !file) {
  console.error('usage: tsx bench/floor-proxy.ts <port> <engine url> <captured.json>');
  process.exit(2);
}
const byPath = new Map(Object.entries(JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, Captured[]>));
const engine = new Pool(engineUrl, { connections: 64 });
const jsonHeaders = { 'content-type': 'application/json' };

/** One engine call, its body collected as Buffers: the cheapest way undici offers (no body stream). */
function call(c: Captured): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    engine.dispatch(
      { method: c.method as 'GET' | 'POST', path: c.path, headers: jsonHeaders, ...(c.body ? { body: c.body } : {}) },
      {
        onRequestStart() {},
        onResponseStart() {},
        onResponseData(_controller, chunk) {
          chunks.push(chunk);
        },
        onResponseEnd() {
          resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
        },
        onResponseError(_controller, err) {
          reject(err);
        },
      },
    );
  });
}

const server = http.createServer((req, res) => {
  const calls = byPath.get(req.url ?? '');
  if (!calls?.length) {
    res.writeHead(404).end();
    return;
  }
  void (async () => {
    try {
      let answer: Buffer = Buffer.alloc(0);
      for (const c of calls) answer = await call(c);
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(answer);
    } catch {
      res.writeHead(502).end();
    }
  })();
});
server.keepAliveTimeout = 60_000;
server.listen(Number(portArg), '127.0.0.1', () => console.log('listening'));
process.on('SIGTERM', () => {
  server.close();
  void engine.close().then(() => process.exit(0));
});
