import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { ACCESS_COOKIE, AppError, checkCsrf, GUARD_FACTS, readCookie, type GuardFacts } from '@guest/http-kit';
import {
  AuthError,
  authenticate,
  type AlongsideQuery,
  type AuthContext,
  type RestrictionKind,
} from './authenticate.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireAuth` / `optionalAuth`; null when anonymous, undefined on unguarded routes. */
    auth?: AuthContext | null;
    /** The row of the guard's `alongside` query (`requireAuth({ alongside })`), read with the session check. */
    authAlongside?: Record<string, unknown>;
  }
}

export interface GuardOptions {
  /** "+Confirmed" operations (spec section 4): 403 `email_not_confirmed` until confirmation. */
  confirmed?: boolean;
  /** 403 `account_restricted` while any of these restrictions is active. */
  restrictions?: RestrictionKind[];
  /**
   * Open to an account with an active `login` restriction (403 `account_restricted` elsewhere):
   * only for routes that list or end its sessions, so a client can still sign out cleanly.
   */
  allowLoginRestricted?: boolean;
  /** The route's own read, made in the session check's round trip (see `AlongsideQuery`). */
  alongside?: AlongsideQuery;
}

/**
 * OpenAPI security requirement of a signed-in route: the bearer token (apps, bots) or the web
 * session's cookie (with its CSRF check).
 */
export const bearerSecurity: Array<Record<string, string[]>> = [{ bearer: [] }, { cookie: [] }];
/** OpenAPI security requirement of a route where sign-in is optional (`optionalAuth`). */
export const optionalSecurity: Array<Record<string, string[]>> = [{}, ...bearerSecurity];

function bearerToken(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  const m = /^Bearer[ ]+([A-Za-z0-9._~+/=-]+)\s*$/i.exec(h);
  return m ? m[1]! : '';
}

/**
 * The access token of the request: the bearer header when there is one (apps, bots: exactly as
 * without the web session), else the web session's cookie, which must pass the CSRF check
 * (`checkCsrf`: 403 `forbidden`). Null when neither is sent, '' when one is malformed.
 */
function credential(req: FastifyRequest): string | null {
  const bearer = bearerToken(req);
  if (bearer !== null) return bearer;
  const cookie = readCookie(req, ACCESS_COOKIE);
  if (cookie === undefined) return null;
  checkCsrf(req);
  return cookie;
}

function unauthorized(reason: string): AppError {
  const message =
    reason === 'missing'
      ? 'Sign-in is required: send Authorization: Bearer <access_token>.'
      : reason === 'expired'
        ? 'The access token has expired; refresh it and retry.'
        : reason === 'session_closed'
          ? 'This session has been closed; sign in again.'
          : 'The access token is not valid here.';
  return new AppError('unauthorized', message, { reason }, { 'www-authenticate': 'Bearer' });
}

async function identify(
  req: FastifyRequest,
  token: string,
  opts: { allowLoginRestricted?: boolean; alongside?: AlongsideQuery } = {},
): Promise<AuthContext & { alongside?: Record<string, unknown> }> {
  try {
    return await authenticate(req.server.runtime, token, { ip: req.ip }, opts);
  } catch (err) {
    if (err instanceof AuthError && err.reason === 'login_restricted') {
      throw new AppError('account_restricted', 'This account may not be used now.', { restrictions: ['login'] });
    }
    if (err instanceof AuthError) throw unauthorized(err.reason);
    throw err;
  }
}

function enforce(auth: AuthContext, opts: GuardOptions): void {
  if (opts.restrictions?.length) {
    const active = opts.restrictions.filter((r) => auth.restrictions.includes(r));
    if (active.length) {
      throw new AppError('account_restricted', undefined, { restrictions: active });
    }
  }
  if (opts.confirmed && !auth.emailConfirmed) throw new AppError('email_not_confirmed');
}

/**
 * Route hook (`onRequest: requireAuth()`) for signed-in routes: sets `req.actorId` and
 * `req.auth` before the per-actor rate limit and idempotency scope read them.
 */
export function requireAuth(opts: GuardOptions = {}): onRequestAsyncHookHandler {
  const hook: onRequestAsyncHookHandler = async (req) => {
    const token = credential(req);
    if (token === null) throw unauthorized('missing');
    if (!token) throw unauthorized('invalid');
    const { alongside, ...auth } = await identify(req, token, {
      allowLoginRestricted: opts.allowLoginRestricted,
      alongside: opts.alongside,
    });
    req.auth = auth;
    if (alongside) req.authAlongside = alongside;
    req.actorId = auth.accountId;
    enforce(auth, opts);
  };
  // For the OpenAPI document: such a route answers 403 `account_restricted` to a restricted account.
  return marked(hook, { restrictable: !opts.allowLoginRestricted || Boolean(opts.restrictions?.length) });
}

function marked(hook: onRequestAsyncHookHandler, facts: GuardFacts): onRequestAsyncHookHandler {
  return Object.assign(hook, { [GUARD_FACTS]: facts });
}

/**
 * For routes where sign-in is optional (e.g. the feed with `is_favorite`): anonymous without a
 * header; a header that is present but bad is still 401, so a client learns to refresh. A session
 * cookie that fails the CSRF check is not used: the request is anonymous (an image element
 * loading a file by its ticket sends the cookie but not the header).
 */
export function optionalAuth(): onRequestAsyncHookHandler {
  const hook: onRequestAsyncHookHandler = async (req) => {
    req.auth = null;
    let token: string | null;
    try {
      token = credential(req);
    } catch (err) {
      if (err instanceof AppError && err.code === 'forbidden') return;
      throw err;
    }
    if (token === null) return;
    if (!token) throw unauthorized('invalid');
    const auth = await identify(req, token);
    req.auth = auth;
    req.actorId = auth.accountId;
  };
  return marked(hook, { restrictable: true });
}

/** The caller of a route guarded by `requireAuth`. */
export function authOf(req: FastifyRequest): AuthContext {
  if (!req.auth) throw unauthorized('missing');
  return req.auth;
}
