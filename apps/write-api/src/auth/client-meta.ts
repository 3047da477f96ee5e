import type { FastifyRequest } from 'fastify';
import type { ClientMeta } from './sessions.ts';

/** What a session records of the client that opens or refreshes it, read from the request. */
export function clientMeta(req: FastifyRequest): ClientMeta {
  const ua = req.headers['user-agent'];
  return { ip: req.ip, address: req.addressKey, userAgent: typeof ua === 'string' && ua ? ua.slice(0, 512) : null };
}
