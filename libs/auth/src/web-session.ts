import type { onRequestAsyncHookHandler, onSendAsyncHookHandler, preValidationAsyncHookHandler } from 'fastify';
import {
  AppError,
  checkCsrf,
  clearSessionCookies,
  readCookie,
  REFRESH_COOKIE,
  setSessionCookies,
  wantsCookieSession,
} from '@guest/http-kit';

/**
 * Route hooks of the operations that hand out a token pair (register, login, refresh) for the web
 * session (spec 5.12): with `X-Session: cookie` the request passes the CSRF check, refresh takes
 * its refresh token from the cookie when the body has none, and the token pair the handler
 * returned becomes the session cookies and a 204 without a body. The pair is turned into cookies
 * at the very end (`onSend`, after the idempotency layer kept the sealed answer), so a replay of
 * an `Idempotency-Key` sets the same cookies again. Without the header nothing changes.
 * `refresh: true` (the refresh operation): the refresh token comes from its cookie when the body
 * has none, and a refused refresh removes the cookies.
 */
export function cookieSession(opts: { refresh?: boolean } = {}): {
  onRequest: onRequestAsyncHookHandler;
  preValidation: preValidationAsyncHookHandler;
  onSend: onSendAsyncHookHandler<unknown>;
} {
  return {
    async onRequest(req) {
      if (wantsCookieSession(req)) checkCsrf(req);
    },
    async preValidation(req) {
      if (!opts.refresh || !wantsCookieSession(req)) return;
      const body = req.body as { refresh_token?: unknown } | null | undefined;
      if (body && typeof body === 'object' && body.refresh_token !== undefined) return;
      const token = readCookie(req, REFRESH_COOKIE);
      if (!token) {
        throw new AppError('unauthorized', 'There is no session cookie; sign in again.', {
          reason: 'invalid_refresh_token',
        });
      }
      req.body = { refresh_token: token };
    },
    async onSend(req, reply, payload) {
      if (!wantsCookieSession(req)) return payload;
      const config = req.server.runtime.config;
      if (opts.refresh && reply.statusCode === 401) {
        // The session is over: the browser forgets its cookies.
        clearSessionCookies(reply, config);
        return payload;
      }
      if (reply.statusCode >= 300 || typeof payload !== 'string') return payload;
      const pair = JSON.parse(payload) as { access_token?: unknown; refresh_token?: unknown; expires_in?: unknown };
      if (
        typeof pair.access_token !== 'string' ||
        typeof pair.refresh_token !== 'string' ||
        typeof pair.expires_in !== 'number'
      ) {
        return payload;
      }
      setSessionCookies(reply, config, {
        access_token: pair.access_token,
        refresh_token: pair.refresh_token,
        expires_in: pair.expires_in,
      });
      reply.code(204);
      reply.removeHeader('content-type');
      reply.removeHeader('content-length');
      return null;
    },
  };
}
