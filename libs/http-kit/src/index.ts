export { ERROR_CODES, DEFAULT_MESSAGES, type ErrorCode } from './errors/codes.ts';
export { AppError, errors, type ErrorDetails } from './errors/app-error.ts';
export { ErrorEnvelope, envelope, type ErrorEnvelopeBody } from './errors/envelope.ts';
export { normalizeError } from './errors/normalize.ts';
export {
  LANGUAGES,
  DEFAULT_LANG,
  negotiateLanguage,
  parseAcceptLanguage,
  matchLanguage,
  type Lang,
} from './language.ts';
export { createCursorCodec, type CursorCodec } from './cursor.ts';
export { RateLimiter, type RateLimitResult } from './rate-limit.ts';
export { purgeExpiredIdempotencyKeys } from './idempotency.ts';
export { HealthResponse } from './health.ts';
export { INTERFACE_VERSION } from './openapi.ts';
export { GUARD_FACTS, type GuardFacts } from './openapi/finish.ts';
export { createServer, type AppPlugin, type ServerOptions } from './server.ts';
export { installGracefulShutdown } from './shutdown.ts';
export { limitParam, cursorParam, langParam, queryBool, MessageResponse, pageOf } from './schemas.ts';
export { runHttpServer, packageVersion } from './start.ts';
export { publicBaseUrl } from './public-url.ts';
export { etagMatches } from './etag.ts';
export { addressGroup } from './address.ts';
export { securityHeaders, metricsAccess, carriesMetricsToken } from './security-headers.ts';
export { addGauge } from './metrics.ts';
export type { OpenApiTag, OperationExample } from './openapi/example.ts';
export {
  SESSION_HEADER,
  COOKIE_MODE,
  ACCESS_COOKIE,
  REFRESH_COOKIE,
  wantsCookieSession,
  readCookie,
  setSessionCookies,
  clearSessionCookies,
  checkCsrf,
  SessionModeHeaders,
  CookieSessionAnswer,
} from './web-session.ts';
