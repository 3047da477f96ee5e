import type { FastifyRequest } from 'fastify';

/** Bases of servers that listen, by server (see `publicBaseUrl`). */
const boundBases = new WeakMap<object, string>();

/**
 * The base of every absolute URL the API hands out (DESIGN section 6): `PUBLIC_BASE_URL`, which
 * production must set; elsewhere the address this server is configured to listen on
 * (`http://HOST:PORT`, with the port it really got when `PORT` is 0 and a wildcard host read as
 * loopback). Never the request's `Host` header: a shared cache must not keep, nor a client
 * receive, URLs that a forged header chose.
 */
export function publicBaseUrl(req: FastifyRequest): string {
  const { PUBLIC_BASE_URL, HOST, PORT } = req.server.runtime.config;
  if (PUBLIC_BASE_URL) return PUBLIC_BASE_URL.replace(/\/+$/, '');
  // The bound address is a system call (getsockname) and does not change while the server
  // listens: a listening server's base is kept, not asked for on every signed-in read.
  const known = boundBases.get(req.server.server);
  if (known) return known;
  const bound = req.server.server.address();
  const port = bound && typeof bound === 'object' ? bound.port : PORT;
  const host =
    HOST === '0.0.0.0' || HOST === '' ? '127.0.0.1' : HOST === '::' ? '[::1]' : HOST.includes(':') ? `[${HOST}]` : HOST;
  const base = `http://${host}:${port}`;
  if (bound && typeof bound === 'object') {
    boundBases.set(req.server.server, base);
    req.server.server.once('close', () => boundBases.delete(req.server.server));
  }
  return base;
}
