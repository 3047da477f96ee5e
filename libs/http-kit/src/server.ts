import Fastify, {
  LogController,
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import type { DestinationStream } from 'pino';
import { redisSettled, type Runtime } from '@guest/runtime';
import { AppError } from './errors/app-error.ts';
import { envelope } from './errors/envelope.ts';
import { normalizeError } from './errors/normalize.ts';
import { genRequestId } from './request-id.ts';
import { addressGroup } from './address.ts';
import { securityHeaders } from './security-headers.ts';
import { negotiateLanguage, type Lang } from './language.ts';
import { createCursorCodec, type CursorCodec } from './cursor.ts';
import { appliedLimits, rateLimitHeaders, RateLimiter, type AppliedLimit } from './rate-limit.ts';
import { createCors } from './cors.ts';
import { createMetrics } from './metrics.ts';
import type { Registry } from 'prom-client';
import { registerIdempotency } from './idempotency.ts';
import { registerJsonBody } from './json-body.ts';
import { registerHealth, registerOperatorEndpoints } from './health.ts';
import { registerOpenApi } from './openapi.ts';
import type { OpenApiTag } from './openapi/example.ts';
import { trackRoutes } from './method-not-allowed.ts';
import { loggerOptions, writeAccessLine } from './log.ts';
import { clientErrorHandler } from './client-error.ts';
import { registerInputScreen, strictValidatorCompiler } from './input-screen.ts';
import { precompiledSerializerCompiler } from './serializer.ts';
import { compressionHook } from './compression.ts';

declare module 'fastify' {
  interface FastifyInstance {
    runtime: Runtime;
    cursors: CursorCodec;
    rateLimiter: RateLimiter;
    /** The server's Prometheus registry (`/metrics`): a process adds its own metrics (open sockets). */
    metrics: Registry;
  }
  interface FastifyRequest {
    /** The rate limits this request was counted against, for its `RateLimit` headers. */
    rateLimits: AppliedLimit[];
    lang: Lang;
    /**
     * The client as per-address limits count it: its IPv4 address, or the IPv6 prefix of
     * `RATE_LIMIT_IPV6_PREFIX` bits it belongs to (`addressGroup`). `req.ip` stays the exact
     * address, for what is shown to people (a session's last address).
     */
    addressKey: string;
    /** Id of the signed-in account, set by the auth guard; null when anonymous. */
    actorId: string | null;
  }
  interface FastifyContextConfig {
    rateLimitExempt?: boolean;
    /** A private answer even without sign-in (e.g. a file fetched with a ticket): `Cache-Control: no-store`. */
    private?: boolean;
  }
}

export interface AppPlugin {
  name: string;
  plugin: FastifyPluginAsync<any>;
  options?: Record<string, unknown>;
  /**
   * A GET or HEAD to a path no route serves, before it becomes the 404 envelope: an app may answer
   * it itself (the web client answers a browser's page request with its own not-found page) and
   * says so by returning true.
   */
  notFound?(req: FastifyRequest, reply: FastifyReply): Promise<boolean>;
  /** The OpenAPI tags its routes name, with what each groups. */
  tags?: OpenApiTag[];
}

export interface ServerOptions {
  runtime: Runtime;
  apps: AppPlugin[];
  version?: string;
  logger?: FastifyServerOptions['logger'];
  /** Where log lines go (tests capture them); the logger keeps its level, redaction and serializers. */
  logStream?: DestinationStream;
}

/**
 * Builds one Fastify server with every convention of the API: request ids, language,
 * rate limits, idempotency, the error envelope (including 404/405/413/415/422/500),
 * OpenAPI at /v1/openapi.json, docs at /docs and /health. Each app is a plugin on it, so an
 * app runs alone or together with the others behind one base URL.
 */
export async function createServer(opts: ServerOptions): Promise<FastifyInstance> {
  const { runtime } = opts;
  const { config } = runtime;
  const hops = config.TRUST_PROXY;
  let logger: () => FastifyInstance['log'] = () => {
    throw new Error('no logger yet');
  };
  const app = Fastify({
    logger: opts.logStream
      ? loggerOptions(config.LOG_LEVEL, opts.logStream)
      : (opts.logger ?? loggerOptions(config.LOG_LEVEL)),
    genReqId: genRequestId,
    requestIdHeader: false,
    logController: new AccessLogController(),
    bodyLimit: config.BODY_LIMIT_BYTES,
    // DESIGN.md section 6: a hop count or the proxies' addresses, never "trust every hop" (config
    // refuses `true`); the client is the first untrusted hop from the right of X-Forwarded-For.
    trustProxy: typeof hops === 'number' ? (_addr: string, i: number) => i < hops : hops,
    forceCloseConnections: 'idle',
    // Requests that arrive while closing get 503 from the onRequest hook below, in the envelope;
    // Fastify's own 503 has neither the envelope nor X-Request-Id.
    return503OnClosing: false,
    // Errors found before routing (a path that is not valid percent-encoding, a path parameter
    // over the length limit) take the same error path as every other error.
    frameworkErrors: (err, req, reply) => {
      reply.header('x-request-id', req.id);
      // The reply is sent; Fastify wants nothing back from this hook.
      void sendError(err, req, reply);
    },
    // Errors of Node's HTTP parser (431, unknown method, Content-Length with Transfer-Encoding):
    // the envelope and a request id, written on the socket.
    clientErrorHandler: clientErrorHandler(() => logger(), securityHeaders(config)),
  });
  logger = () => app.log;
  app.setValidatorCompiler(strictValidatorCompiler as never);
  app.setSerializerCompiler(precompiledSerializerCompiler as never);

  app.decorate('runtime', runtime);
  app.decorate('cursors', createCursorCodec(config.CURSOR_SECRET));
  app.decorate('rateLimiter', new RateLimiter(runtime.redis));
  app.addHook('onClose', async () => app.rateLimiter.close());
  app.decorateRequest('lang', 'en');
  app.decorateRequest('actorId', null);
  app.decorateRequest('rateLimits', null as unknown as AppliedLimit[]);
  const v6Prefix = config.RATE_LIMIT_IPV6_PREFIX;
  app.decorateRequest('addressKey', {
    getter(this: FastifyRequest) {
      return addressGroup(this.ip, v6Prefix);
    },
  });
  const cors = createCors(config);
  app.decorate('metrics', createMetrics(app, runtime));

  // Limits a handler's services count (`consume('login', …)`) land in the request's list: each
  // handler runs inside the request's rate-limit context.
  // Compression is each route's last onSend hook (route-level hooks run after the instance's):
  // it sees the final headers, and the answers the read API keeps are the plain bytes.
  const compressAnswer = compressionHook(config.COMPRESSION_MIN_BYTES);
  app.addHook('onRoute', (route) => {
    const own = route.onSend;
    route.onSend = [...(own ? (Array.isArray(own) ? own : [own]) : []), compressAnswer] as typeof route.onSend;
    const handler = route.handler;
    route.handler = function (this: FastifyInstance, req: FastifyRequest, reply: FastifyReply) {
      return appliedLimits.run(req.rateLimits ?? [], () => handler.call(this, req, reply));
    } as typeof handler;
  });

  const allowedMethods = trackRoutes(app);

  // While closing, in-flight requests finish; new ones (on connections that were already open)
  // are turned away at once with 503, and answers end their keep-alive connection, so close()
  // does not wait out the keep-alive timeout of clients that would otherwise stay connected.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  const alwaysHeaders = securityHeaders(config);
  app.addHook('onSend', async (req, reply, payload) => {
    reply.headers(alwaysHeaders);
    if (closing) reply.header('connection', 'close');
    cors.decorate(req, reply);
    const limits = req.rateLimits ? rateLimitHeaders(req.rateLimits) : null;
    if (limits) reply.headers(limits);
    // Private answers are never stored by a browser or a shared cache: every answer to a
    // request whose caller was identified (a guard found the actor: `/v1/me*`, sessions,
    // transactions, a feed with `is_favorite`…), and routes marked `private`. A token sent to a
    // public route that does not read it (map tiles) leaves that route's own cache policy.
    if (req.actorId || req.routeOptions.config?.private) {
      const cc = reply.getHeader('cache-control');
      if (!(typeof cc === 'string' && /(^|[\s,])no-store($|[\s,])/i.test(cc)))
        reply.header('cache-control', 'no-store');
    }
    // 204 and 304 have no content (RFC 9110 sections 15.3.5, 15.4.5): no header may describe one.
    if (reply.statusCode === 204 || reply.statusCode === 304) {
      reply.removeHeader('content-type');
      reply.removeHeader('content-length');
      // No payload at all: Fastify then writes no Content-Length for these statuses.
      return null;
    }
    return payload;
  });
  // Its first requests must neither queue nor fail for a Redis connection about to be made.
  app.addHook('onReady', () => redisSettled(runtime.redis, config.REDIS_CONNECT_TIMEOUT_MS));

  app.addHook('onRequest', async (req, reply) => {
    reply.header('x-request-id', req.id);
    req.rateLimits = [];
    if (closing) throw new AppError('unavailable', 'The server is shutting down; retry.', {}, { 'retry-after': '1' });
    req.lang = negotiateLanguage(
      (req.query as Record<string, unknown> | undefined)?.lang,
      req.headers['accept-language'],
    );
    // A preflight costs nothing and comes before most browser requests: counting it would halve
    // a browser client's budget.
    if (req.routeOptions.config?.rateLimitExempt || req.method === 'OPTIONS') return;
    await limit(app, req, 'address', req.addressKey, config.RATE_LIMIT_ADDRESS_PER_MIN);
  });
  // After route guards have found the actor (they run in onRequest/preValidation).
  app.addHook('preHandler', async (req) => {
    if (!req.actorId || req.routeOptions.config?.rateLimitExempt) return;
    await limit(app, req, 'actor', req.actorId, config.RATE_LIMIT_ACTOR_PER_MIN);
  });

  registerInputScreen(app, { maxDepth: config.JSON_MAX_DEPTH, maxItems: config.JSON_MAX_ARRAY_ITEMS });
  registerIdempotency(app, runtime.database.db, config.IDEMPOTENCY_TTL_H);

  app.setErrorHandler(sendError);
  registerJsonBody(app);

  const notFoundPages = opts.apps.filter((a) => a.notFound);
  app.setNotFoundHandler(async (req, reply) => {
    const allowed = allowedMethods(req.method, req.url);
    if (!allowed.length && (req.method === 'GET' || req.method === 'HEAD')) {
      for (const a of notFoundPages) if (await a.notFound!(req, reply)) return reply;
    }
    // OPTIONS on a known path (no route declares it): its methods, and a CORS preflight's answer
    // when the browser asks from an allowed origin.
    if (req.method === 'OPTIONS' && allowed.length) {
      const methods = [...allowed, 'OPTIONS'];
      cors.preflight(req, reply, methods);
      return reply.code(204).header('allow', methods.join(', ')).send();
    }
    // OPTIONS is answered on every known path (above), so it is one of the allowed methods.
    const withOptions = [...allowed, 'OPTIONS'];
    const appError = allowed.length
      ? new AppError(
          'method_not_allowed',
          `Method ${req.method} is not allowed here.`,
          { allowed: withOptions },
          { allow: withOptions.join(', ') },
        )
      : new AppError('not_found', 'No such endpoint.', { path: req.url.split('?')[0] });
    return reply.code(appError.status).headers(appError.headers).send(envelope(appError, req.id));
  });

  await registerOpenApi(
    app,
    opts.apps.flatMap((a) => a.tags ?? []),
  );
  registerHealth(app, runtime, opts.version ?? '0.0.0');
  registerOperatorEndpoints(app, runtime, app.metrics);
  for (const a of opts.apps) await app.register(a.plugin, { ...a.options });
  return app;
}

/**
 * One access line per request, written when it is answered (the request, status and time),
 * instead of Fastify's two (`incoming request`, then `request completed`): under load the two
 * lines took about a fifth of the read API's CPU (`npm run bench:compare -- --cpu-prof`).
 */
export class AccessLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error)
      reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else writeAccessLine(reply.log, request, reply.statusCode, reply.elapsedTime);
  }
}

/** The one place an error becomes a response: the envelope, its status and headers, a log line. */
function sendError(err: unknown, req: FastifyRequest, reply: FastifyReply) {
  const appError = normalizeError(err, { retryAfterS: req.server.runtime?.config.UNAVAILABLE_RETRY_AFTER_S });
  if (appError.code === 'unavailable') req.log.error({ err }, 'request failed: a dependency is not answering');
  else if (appError.status >= 500) req.log.error({ err }, 'request failed');
  else req.log.info({ code: appError.code, details: appError.details }, 'request rejected');
  return reply.code(appError.status).headers(appError.headers).send(envelope(appError, req.id));
}

async function limit(
  app: FastifyInstance,
  req: FastifyRequest,
  bucket: string,
  id: string,
  perMinute: number,
): Promise<void> {
  let result;
  try {
    result = await appliedLimits.run(req.rateLimits, () => app.rateLimiter.hitBatched(bucket, id, perMinute, 60));
  } catch (err) {
    req.log.warn({ err }, 'rate limiter unavailable; request let through');
    return;
  }
  if (!result.allowed) {
    throw new AppError(
      'rate_limited',
      undefined,
      { retry_after: result.retryAfterS, scope: bucket },
      {
        'retry-after': String(result.retryAfterS),
      },
    );
  }
}
