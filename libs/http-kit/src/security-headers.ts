import { createHash, timingSafeEqual } from 'node:crypto';
import { secretsMustBeGiven, type Config } from '@guest/config';

/**
 * Headers every answer of the API carries, whatever its route or outcome (issue 32 point 8):
 * `X-Content-Type-Options: nosniff`, so that a browser reads a body only as its declared type
 * (a JSON answer holding markup is never rendered as a document), and, when the API is served
 * over HTTPS (PUBLIC_BASE_URL), `Strict-Transport-Security`, so that a browser that has seen it
 * once never sends a request (or a cookie) over plain HTTP to it again.
 */
export function securityHeaders(config: Pick<Config, 'PUBLIC_BASE_URL' | 'HSTS_MAX_AGE_S'>): Record<string, string> {
  const headers: Record<string, string> = { 'x-content-type-options': 'nosniff' };
  if (config.PUBLIC_BASE_URL?.startsWith('https:')) {
    headers['strict-transport-security'] = `max-age=${config.HSTS_MAX_AGE_S}`;
  }
  return headers;
}

/**
 * Who may read `/metrics` (issue 32 point 8): with METRICS_TOKEN, the bearer of that token
 * (`token`); without it, anyone on a development checkout listening on loopback (`open`), and
 * nobody where the secrets must be given, in production or on any other host (`closed`: the
 * endpoint is not served).
 */
export function metricsAccess(config: Pick<Config, 'METRICS_TOKEN' | 'APP_ENV' | 'HOST'>): 'token' | 'open' | 'closed' {
  if (config.METRICS_TOKEN) return 'token';
  return secretsMustBeGiven(config.APP_ENV, config.HOST) ? 'closed' : 'open';
}

/** Whether an `Authorization` header carries the metrics token (compared in constant time). */
export function carriesMetricsToken(authorization: string | undefined, token: string): boolean {
  const m = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization ?? '');
  if (!m) return false;
  const digest = (v: string) => createHash('sha256').update(v, 'utf8').digest();
  return timingSafeEqual(digest(m[1]!), digest(token));
}
