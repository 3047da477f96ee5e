import type { FastifyRequest } from 'fastify';

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
  const bound = req.server.server.address();
  const port = bound && typeof bound === 'object' ? bound.port : PORT;
  const host =
    HOST === '0.0.0.0' || HOST === '' ? '127.0.0.1' : HOST === '::' ? '[::1]' : HOST.includes(':') ? `[${HOST}]` : HOST;
  return `http://${host}:${port}`;
}
