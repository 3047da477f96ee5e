import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '@guest/config';

/** Request headers a browser client may send (preflight `Access-Control-Allow-Headers`). */
const ALLOW_HEADERS =
  'Authorization, Content-Type, Idempotency-Key, Accept-Language, If-None-Match, X-Request-Id, X-Session';
/** Response headers a browser client may read besides the CORS-safelisted ones. */
const EXPOSE_HEADERS = 'X-Request-Id, Retry-After, ETag, RateLimit, RateLimit-Policy, Allow';

// A local web client in development runs on any port of the loopback host names.
const LOCAL_ORIGIN = /^http:\/\/(localhost|127\.0\.0\.1)(:[0-9]{1,5})?$/;

export interface Cors {
  /** On every answer: who may read it, and which headers it may read. */
  decorate(req: FastifyRequest, reply: FastifyReply): void;
  /** The preflight headers for `methods` (the path's own methods), when the origin is allowed. */
  preflight(req: FastifyRequest, reply: FastifyReply, methods: string[]): void;
}

/**
 * CORS from `CORS_ORIGINS` (exact origins; `*` outside production), plus any loopback origin in
 * development. A disallowed origin gets no CORS header at all, so the browser keeps the answer
 * from the page; the API itself answers as usual (CORS protects browser users, not the server).
 * Credentials (the web session's cookie) are allowed to the exact origins of `CORS_ORIGINS` and,
 * in development, to loopback origins: never to `*`. Those are the origins the cookie session's
 * CSRF check accepts (`web-session.ts`); the cookies themselves are `SameSite=Strict`.
 */
export function createCors(config: Pick<Config, 'CORS_ORIGINS' | 'CORS_MAX_AGE_S' | 'APP_ENV'>): Cors {
  const exact = new Set(config.CORS_ORIGINS.filter((o) => o !== '*'));
  const any = config.CORS_ORIGINS.includes('*');
  const allowed = (origin: string) =>
    any || exact.has(origin) || (config.APP_ENV === 'development' && LOCAL_ORIGIN.test(origin));

  const credentialed = (origin: string) =>
    exact.has(origin) || (config.APP_ENV === 'development' && LOCAL_ORIGIN.test(origin));

  const allowOrigin = (req: FastifyRequest, reply: FastifyReply): boolean => {
    // The answer depends on Origin whatever it is: a shared cache must not hand one origin's
    // answer (with or without its CORS headers) to another.
    addVary(reply, 'Origin');
    const origin = req.headers.origin;
    if (typeof origin !== 'string' || !allowed(origin)) return false;
    reply.header('access-control-allow-origin', origin);
    if (credentialed(origin)) reply.header('access-control-allow-credentials', 'true');
    return true;
  };

  return {
    decorate(req, reply) {
      if (allowOrigin(req, reply)) reply.header('access-control-expose-headers', EXPOSE_HEADERS);
    },
    preflight(req, reply, methods) {
      addVary(reply, 'Access-Control-Request-Method');
      addVary(reply, 'Access-Control-Request-Headers');
      if (!allowOrigin(req, reply)) return;
      reply.header('access-control-allow-methods', methods.join(', '));
      reply.header('access-control-allow-headers', ALLOW_HEADERS);
      reply.header('access-control-max-age', String(config.CORS_MAX_AGE_S));
    },
  };
}

function addVary(reply: FastifyReply, name: string): void {
  const current = reply.getHeader('vary');
  const list = (Array.isArray(current) ? current.join(',') : String(current ?? ''))
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  if (list.some((v) => v === '*' || v.toLowerCase() === name.toLowerCase())) return;
  reply.header('vary', [...list, name].join(', '));
}
