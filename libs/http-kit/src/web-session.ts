import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '@guest/config';
import { z } from 'zod';
import { AppError } from './errors/app-error.ts';

/**
 * The web session (spec 5.12, DESIGN section 7): the web client holds no readable token. It asks
 * for a cookie session with the request header `X-Session: cookie` on register, login and refresh;
 * the server then sets the tokens as HttpOnly cookies and answers without them. The same header is
 * the custom header of the CSRF check: every cookie-authenticated request sends it, and its
 * `Origin` (when a browser sends one) must be an allowed origin.
 */
export const SESSION_HEADER = 'x-session';
/** The one value of `X-Session`. */
export const COOKIE_MODE = 'cookie';
/** The access token's cookie (also the OpenAPI `cookie` security scheme's name). */
export const ACCESS_COOKIE = 'guest_access';
/** The refresh token's cookie. */
export const REFRESH_COOKIE = 'guest_refresh';

/** Whether the request asks for a cookie session (`X-Session: cookie`). */
export function wantsCookieSession(req: FastifyRequest): boolean {
  return req.headers[SESSION_HEADER] === COOKIE_MODE;
}

// RFC 6265 cookie-octets: the tokens we set are base64url and JWTs, both within them.
const COOKIE_VALUE = /^[\x21\x23-\x2b\x2d-\x3a\x3c-\x5b\x5d-\x7e]*$/;

/** The value of one cookie of the request, or undefined when it is not sent. */
export function readCookie(req: FastifyRequest, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    return COOKIE_VALUE.test(value) ? value : '';
  }
  return undefined;
}

/** `Secure` when the public base URL is https: a plain-http development server keeps its cookies. */
const secure = (config: Pick<Config, 'PUBLIC_BASE_URL'>) => config.PUBLIC_BASE_URL?.startsWith('https:') === true;

function cookie(config: Pick<Config, 'PUBLIC_BASE_URL'>, name: string, value: string, maxAgeS: number): string {
  return [
    `${name}=${value}`,
    'Path=/',
    `Max-Age=${maxAgeS}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(secure(config) ? ['Secure'] : []),
  ].join('; ');
}

function appendCookies(reply: FastifyReply, cookies: string[]): void {
  const current = reply.getHeader('set-cookie');
  const before = current === undefined ? [] : Array.isArray(current) ? current.map(String) : [String(current)];
  reply.header('set-cookie', [...before.filter((c) => !cookies.some((n) => sameName(c, n))), ...cookies]);
}

const sameName = (a: string, b: string) => a.slice(0, a.indexOf('=')) === b.slice(0, b.indexOf('='));

/**
 * Sets the session's tokens as cookies: the access token for its lifetime, the refresh token for
 * the session's idle lifetime (a refresh extends both, as it extends the session).
 */
export function setSessionCookies(
  reply: FastifyReply,
  config: Pick<Config, 'PUBLIC_BASE_URL' | 'SESSION_IDLE_TTL_D'>,
  pair: { access_token: string; refresh_token: string; expires_in: number },
): void {
  appendCookies(reply, [
    cookie(config, ACCESS_COOKIE, pair.access_token, pair.expires_in),
    cookie(config, REFRESH_COOKIE, pair.refresh_token, config.SESSION_IDLE_TTL_D * 86_400),
  ]);
}

/** Removes both cookies (`Max-Age=0`): after logout, or a refresh the server refused. */
export function clearSessionCookies(reply: FastifyReply, config: Pick<Config, 'PUBLIC_BASE_URL'>): void {
  appendCookies(reply, [cookie(config, ACCESS_COOKIE, '', 0), cookie(config, REFRESH_COOKIE, '', 0)]);
}

// A local web client in development runs on any port of the loopback host names.
const LOCAL_ORIGIN = /^http:\/\/(localhost|127\.0\.0\.1)(:[0-9]{1,5})?$/;

/**
 * Whether a browser's `Origin` may use the cookie session: the API's own origin (the request's
 * host, or `PUBLIC_BASE_URL`), an exact entry of `CORS_ORIGINS` (never `*`), or a loopback origin
 * in development.
 */
function originAllowed(req: FastifyRequest, origin: string): boolean {
  const config = req.server.runtime.config;
  if (config.CORS_ORIGINS.includes(origin)) return true;
  if (config.APP_ENV === 'development' && LOCAL_ORIGIN.test(origin)) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.origin !== origin) return false;
  if (config.PUBLIC_BASE_URL && new URL(config.PUBLIC_BASE_URL).origin === origin) return true;
  return typeof req.headers.host === 'string' && url.host === req.headers.host.toLowerCase();
}

function csrfRefused(reason: 'csrf_header' | 'csrf_origin'): AppError {
  return new AppError(
    'forbidden',
    reason === 'csrf_header'
      ? 'A request signed in by the session cookie must send X-Session: cookie.'
      : 'This origin may not use the session cookie.',
    { reason },
  );
}

/**
 * The CSRF check of a cookie-authenticated request (and of a request asking for a cookie session):
 * the custom header `X-Session: cookie` (a cross-site form cannot send it, and a foreign page's
 * fetch with it is stopped by the CORS preflight), and an `Origin` among the allowed ones. A
 * browser sends `Origin` with every cross-origin request; without it, `Sec-Fetch-Site` must not say
 * `cross-site`. Throws 403 `forbidden` (`details.reason` `csrf_header` or `csrf_origin`).
 */
export function checkCsrf(req: FastifyRequest): void {
  if (!wantsCookieSession(req)) throw csrfRefused('csrf_header');
  const origin = req.headers.origin;
  if (typeof origin === 'string') {
    if (!originAllowed(req, origin)) throw csrfRefused('csrf_origin');
  } else if (req.headers['sec-fetch-site'] === 'cross-site') {
    throw csrfRefused('csrf_origin');
  }
}

/** The `X-Session` request header as the OpenAPI document declares it on register, login and refresh. */
export const SessionModeHeaders = z.looseObject({
  'x-session': z
    .enum([COOKIE_MODE])
    .optional()
    .meta({
      description:
        'Web client only: `cookie` asks for a cookie session. The tokens are then set as HttpOnly, SameSite=Strict, ' +
        '`Path=/` cookies (`Secure` when the API is served over https) and the answer is 204 without a body. ' +
        'Every request signed in by the cookie sends this header too (the CSRF check). Apps and bots leave it out.',
    }),
});

/** The cookie-session answer of register, login and refresh, for the OpenAPI document. */
export const CookieSessionAnswer = z.null().meta({
  description:
    'With `X-Session: cookie`: the session is in the HttpOnly cookies `guest_access` and `guest_refresh` (Set-Cookie); ' +
    'no token is in the body.',
});
