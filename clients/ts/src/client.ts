import createClient, { defaultPathSerializer, type Client } from 'openapi-fetch';
import type { paths } from './generated/schema.ts';
import { cookieSessionMiddleware, sessionMiddleware, type TokenStore } from './session.ts';

export interface GuestClientOptions {
  /** Scheme, host and port of the API, e.g. `http://127.0.0.1:8080` (paths start with `/v1`). */
  baseUrl: string;
  /** The access token of register, login or refresh; sent as `Authorization: Bearer …`. */
  accessToken?: string | null;
  /**
   * Where the token pair lives. With a store the client signs requests in with its access token
   * and refreshes the pair on a 401 and retries (see `sessionMiddleware`); `accessToken` is then unused.
   */
  tokens?: TokenStore;
  /**
   * `'cookie'`: the web session (a page of the API's own or an allowed origin). The client holds no
   * token: it sends `X-Session: cookie` and the session's HttpOnly cookies with every request and
   * refreshes the session on a 401 (see `cookieSessionMiddleware`); `accessToken` and `tokens` are
   * then unused. Apps and bots keep `accessToken` or `tokens` (`Authorization: Bearer`).
   */
  session?: 'cookie';
  /** With `session: 'cookie'`: called when the API refused to refresh the session (signed out). */
  onSignedOut?: () => void;
  /** Another fetch (tests, proxies). */
  fetch?: typeof globalThis.fetch;
}

export type GuestClient = Client<paths> & {
  /** Signs the following requests in with this token, or out with null (after refresh, logout). */
  setAccessToken(token: string | null): void;
};

/**
 * Path parameters are percent-encoded (so a slug or an id cannot change the path), except the map
 * proxy's `path`, whose slashes separate its segments: the API refuses an encoded slash there.
 */
function pathSerializer(pathname: string, params: Record<string, unknown>): string {
  const { path, ...rest } = params;
  const url = defaultPathSerializer(pathname, rest);
  if (typeof path !== 'string') return url;
  return url.replace('{path}', path.split('/').map(encodeURIComponent).join('/'));
}

/** A typed client of the guest API (openapi-fetch on the generated `paths`). */
export function createGuestClient(opts: GuestClientOptions): GuestClient {
  let token = opts.accessToken ?? null;
  const baseUrl = opts.baseUrl.replace(/\/+$/, '');
  const client = createClient<paths>({
    baseUrl,
    pathSerializer,
    ...(opts.fetch ? { fetch: opts.fetch } : {}),
  });
  const fetchFn: typeof globalThis.fetch = opts.fetch ?? ((input, init) => globalThis.fetch(input, init));
  if (opts.session === 'cookie') {
    client.use(cookieSessionMiddleware({ baseUrl, fetch: fetchFn, onSignedOut: opts.onSignedOut }));
  } else if (opts.tokens) {
    client.use(sessionMiddleware({ baseUrl, tokens: opts.tokens, fetch: fetchFn }));
  }
  client.use({
    onRequest({ request }) {
      if (token && !request.headers.has('authorization')) request.headers.set('authorization', `Bearer ${token}`);
      return request;
    },
  });
  return Object.assign(client, {
    setAccessToken(next: string | null) {
      token = next;
    },
  });
}
