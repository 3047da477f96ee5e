import type { Middleware } from 'openapi-fetch';

/** The token pair of register, login and refresh (`TokenPairResponse`), as a client keeps it. */
export interface TokenPair {
  access_token: string;
  refresh_token: string;
  expires_in: number;
  session_id: string;
  token_type?: string;
}

/**
 * Where a client keeps its token pair: memory (`memoryTokenStore`), or the page's `localStorage`,
 * or a phone's keychain. `set(null)` means signed out (logout, or a refresh the API refused).
 */
export interface TokenStore {
  get(): TokenPair | null;
  set(pair: TokenPair | null): void;
}

export function memoryTokenStore(initial: TokenPair | null = null): TokenStore {
  let pair = initial;
  return {
    get: () => pair,
    set: (next) => {
      pair = next;
    },
  };
}

/** Requests that never get the refresh-and-retry: they are the sign-in itself. */
const NO_RETRY = new Set(['/v1/auth/refresh', '/v1/auth/login', '/v1/auth/register', '/v1/auth/logout']);

/**
 * Signs requests in with the store's access token and, when the API answers 401 to a request that
 * carried it (the token expired or was revoked), refreshes the pair once (`POST /v1/auth/refresh`;
 * concurrent 401s share one refresh, since a refresh token is single-use) and sends the request
 * again with the new token. A refresh the API refuses signs the store out (`set(null)`) and the
 * caller gets the original 401.
 */
export function sessionMiddleware(opts: {
  baseUrl: string;
  tokens: TokenStore;
  fetch: typeof globalThis.fetch;
}): Middleware {
  const pending = new Map<string, Request>();
  let refreshing: Promise<TokenPair | null> | null = null;

  async function refresh(used: string): Promise<TokenPair | null> {
    const current = opts.tokens.get();
    if (!current) return null;
    // Another request refreshed while this one was in flight: use its result.
    if (current.access_token !== used) return current;
    const res = await opts.fetch(`${opts.baseUrl}/v1/auth/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refresh_token: current.refresh_token }),
    });
    if (!res.ok) {
      // Only a refusal of the refresh token signs out; an outage keeps the pair for later.
      if (res.status === 400 || res.status === 401 || res.status === 403) opts.tokens.set(null);
      return null;
    }
    const pair = (await res.json()) as TokenPair;
    opts.tokens.set(pair);
    return pair;
  }

  return {
    onRequest({ request, schemaPath, id }) {
      const token = opts.tokens.get()?.access_token;
      if (!token || request.headers.has('authorization')) return undefined;
      request.headers.set('authorization', `Bearer ${token}`);
      if (!NO_RETRY.has(schemaPath)) pending.set(id, request.clone());
      return request;
    },
    async onResponse({ response, id }) {
      const sent = pending.get(id);
      pending.delete(id);
      if (response.status !== 401 || !sent) return undefined;
      const used = sent.headers.get('authorization')?.replace(/^Bearer /, '') ?? '';
      refreshing ??= refresh(used).finally(() => {
        refreshing = null;
      });
      const pair = await refreshing;
      if (!pair) return undefined;
      const again = new Request(sent);
      again.headers.set('authorization', `Bearer ${pair.access_token}`);
      return opts.fetch(again);
    },
    onError({ id }) {
      pending.delete(id);
      return undefined;
    },
  };
}

/** Requests of a cookie session that never get the refresh-and-retry: they open or renew it. */
const COOKIE_NO_RETRY = new Set(['/v1/auth/refresh', '/v1/auth/login', '/v1/auth/register']);

/**
 * The web session (`X-Session: cookie`): the tokens live in HttpOnly cookies that the page cannot
 * read, so this middleware never sees one. It sends `X-Session: cookie` with every request (the
 * marker of register, login and refresh, and the CSRF header of every request the cookie signs
 * in) and the cookies with it. When the API answers 401, it refreshes the session once
 * (`POST /v1/auth/refresh`, the refresh token in its cookie; concurrent 401s share one refresh)
 * and sends the request again. A refresh the API refuses calls `onSignedOut`; the API has removed
 * the cookies with that answer, so the request is sent once more without them: an operation
 * where sign-in is optional (the feed) answers as to anyone, a signed-in one with its 401.
 */
export function cookieSessionMiddleware(opts: {
  baseUrl: string;
  fetch: typeof globalThis.fetch;
  onSignedOut?: () => void;
}): Middleware {
  const pending = new Map<string, Request>();
  let refreshing: Promise<'refreshed' | 'refused' | 'unavailable'> | null = null;

  async function refresh(): Promise<'refreshed' | 'refused' | 'unavailable'> {
    const res = await opts.fetch(`${opts.baseUrl}/v1/auth/refresh`, {
      method: 'POST',
      headers: { 'x-session': 'cookie' },
      credentials: 'include',
    });
    if (res.ok) return 'refreshed';
    // Only a refusal of the session signs out; an outage keeps it for later.
    if (res.status === 400 || res.status === 401 || res.status === 403) {
      opts.onSignedOut?.();
      return 'refused';
    }
    return 'unavailable';
  }

  return {
    onRequest({ request, schemaPath, id }) {
      request.headers.set('x-session', 'cookie');
      const sent = new Request(request, { credentials: 'include' });
      if (!COOKIE_NO_RETRY.has(schemaPath)) pending.set(id, sent.clone());
      return sent;
    },
    async onResponse({ response, id }) {
      const sent = pending.get(id);
      pending.delete(id);
      if (response.status !== 401 || !sent) return undefined;
      refreshing ??= refresh().finally(() => {
        refreshing = null;
      });
      if ((await refreshing) === 'unavailable') return undefined;
      return opts.fetch(sent);
    },
    onError({ id }) {
      pending.delete(id);
      return undefined;
    },
  };
}
