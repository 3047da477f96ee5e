import { Agent, request, type Dispatcher } from 'undici';
import { AppError } from '@guest/http-kit';

/** Request headers passed to the provider: content negotiation and conditional requests only. */
const FORWARDED_REQUEST_HEADERS = ['accept', 'accept-encoding', 'if-none-match', 'if-modified-since'] as const;

/**
 * Response headers passed back: the body's encoding and everything caching needs. Never its
 * Content-Type: the proxy names the type of each resource kind itself (issue 32 point 4).
 */
export const PASSED_RESPONSE_HEADERS = [
  'content-encoding',
  'content-length',
  'cache-control',
  'etag',
  'last-modified',
  'expires',
  'vary',
] as const;

export type UpstreamAnswer = Dispatcher.ResponseData;

/**
 * The map provider, reached with undici over a keep-alive pool. Waiting is bounded by
 * MAP_UPSTREAM_TIMEOUT_MS twice over: `AbortSignal.timeout` until the response headers arrive
 * (and connecting), then undici's body timeout between two chunks of the body, so a slow client
 * reading a large sprite is never cut off while the provider keeps sending.
 */
export class MapUpstream {
  private readonly agent: Agent;
  private readonly base: string;

  constructor(
    baseUrl: string,
    private readonly timeoutMs: number,
  ) {
    let parsed: URL;
    try {
      parsed = new URL(baseUrl);
    } catch {
      throw new Error(`MAP_UPSTREAM_URL: not a URL: ${baseUrl}`);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new Error(`MAP_UPSTREAM_URL: must be an http(s) URL, got ${parsed.protocol}`);
    }
    if (parsed.search || parsed.hash) throw new Error('MAP_UPSTREAM_URL: must have no query or fragment');
    this.base = baseUrl.replace(/\/+$/, '');
    this.agent = new Agent({
      connect: { timeout: timeoutMs },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      keepAliveTimeout: 10_000,
    });
  }

  /**
   * GETs (or HEADs) `path` (already checked against the allow-list) and answers the provider's response;
   * throws 504 `gateway_timeout` when it does not answer in time and 502 `bad_gateway` when it
   * cannot be reached. `clientGone` aborts the request when the client disconnects first.
   */
  async get(
    path: string,
    incoming: Record<string, string | string[] | undefined>,
    clientGone: AbortSignal,
    method: 'GET' | 'HEAD' = 'GET',
  ) {
    const headers: Record<string, string> = { 'user-agent': 'guest-api-map-proxy' };
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const v = incoming[name];
      if (typeof v === 'string' && v.length <= 1024) headers[name] = v;
    }
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const controller = new AbortController();
    const abort = (reason: unknown) => controller.abort(reason);
    const onTimeout = () => abort(timeout.reason);
    const onClientGone = () => abort(clientGone.reason);
    timeout.addEventListener('abort', onTimeout, { once: true });
    clientGone.addEventListener('abort', onClientGone, { once: true });
    try {
      return await request(`${this.base}/${path}`, {
        method,
        headers,
        dispatcher: this.agent,
        signal: controller.signal,
      });
    } catch (err) {
      throw classify(err, timeout.aborted);
    } finally {
      // The headers are in (or it failed): from now on only the body timeout applies.
      timeout.removeEventListener('abort', onTimeout);
      clientGone.removeEventListener('abort', onClientGone);
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

function classify(err: unknown, timedOut: boolean): AppError {
  const code = (err as { code?: string }).code;
  if (timedOut || code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT') {
    return new AppError('gateway_timeout', 'The map provider did not answer in time.', { upstream: 'map' });
  }
  return new AppError('bad_gateway', 'The map provider cannot be reached.', {
    upstream: 'map',
    reason: code ?? 'request_failed',
  });
}
