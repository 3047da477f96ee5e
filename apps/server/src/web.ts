import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { repoRoot, type Config } from '@guest/config';
import { AppError, publicBaseUrl, type AppPlugin } from '@guest/http-kit';

/** Where `npm run build` (Vite, apps/web) writes the web client. */
export const WEB_DIST = path.join(repoRoot, 'apps', 'web', 'dist');

/**
 * Paths of the page's own screens (apps/web `registerScreen`): each answers the page, which then
 * shows the screen of its URL. Listed rather than a catch-all, so an unknown API path stays a 404
 * envelope and a wrong method on it stays a 405. A new top-level screen path is added here.
 */
export const PAGE_PATHS = [
  '/',
  '/events',
  '/events/*',
  '/listings/*',
  '/sign-in',
  '/account',
  // Also the pages the write API's mails link to (apps/write-api/src/auth/mails.ts).
  '/account/*',
];

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};
const ASSET = /^[A-Za-z0-9][A-Za-z0-9._-]{0,200}$/;

const originOf = (url: string | undefined): string | null => {
  if (!url) return null;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
};

/**
 * The page's rules for the browser (issue 32 point 8): its own scripts only (MapLibre's worker
 * included); requests and the socket to its own origin and the API's (ORIGIN_API_URL or
 * PUBLIC_BASE_URL, with their ws/wss form for the socket) and to the map provider (a style may
 * name the provider's tiles and glyphs directly); images from those and from the files origin
 * (ORIGIN_FILES_URL) and WEB_IMAGE_ORIGINS (listing photos on another host). No other host: a
 * script injected into the page could neither send what it reads anywhere nor load anything.
 */
export function contentSecurityPolicy(
  config: Pick<
    Config,
    'PUBLIC_BASE_URL' | 'ORIGIN_API_URL' | 'ORIGIN_FILES_URL' | 'MAP_UPSTREAM_URL' | 'WEB_IMAGE_ORIGINS'
  >,
  /** The API's base as this server answers it (the demo photos' absolute URLs name it). */
  served?: string,
): string {
  const api = [originOf(config.ORIGIN_API_URL), originOf(config.PUBLIC_BASE_URL)].filter((o): o is string => !!o);
  const sockets = api.map((o) => o.replace(/^http/, 'ws'));
  const map = originOf(config.MAP_UPSTREAM_URL);
  const files = originOf(config.ORIGIN_FILES_URL);
  const list = (...items: Array<string | null | undefined>) =>
    [...new Set(items.filter((i): i is string => !!i))].join(' ');
  return [
    "default-src 'self'",
    "script-src 'self'",
    "worker-src 'self' blob:",
    "style-src 'self' 'unsafe-inline'",
    // The demo photos' absolute URLs name the API's base as served, whichever host name the page
    // was opened on (localhost for 127.0.0.1).
    `img-src ${list("'self'", originOf(served), 'data:', 'blob:', ...api, files, map, ...config.WEB_IMAGE_ORIGINS)}`,
    `connect-src ${list("'self'", ...api, ...sockets, map)}`,
    "font-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');
}

async function sendIndex(req: FastifyRequest, reply: FastifyReply, status = 200) {
  let html: Buffer;
  try {
    html = await readFile(path.join(WEB_DIST, 'index.html'));
  } catch {
    throw new AppError('not_found', 'The web client is not built: run `npm run build` (npm run dev does it).', {
      path: '/',
    });
  }
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-cache')
    .header('content-security-policy', contentSecurityPolicy(req.server.runtime.config, publicBaseUrl(req)))
    .header('referrer-policy', 'same-origin')
    .send(html);
}

async function webRoutes(app: FastifyInstance): Promise<void> {
  const route = { schema: { hide: true } as never, config: { rateLimitExempt: true } };
  for (const url of PAGE_PATHS) app.get(url, route, async (req, reply) => sendIndex(req, reply));
  // File names carry a content hash (Vite): cached for good, a new build has new names.
  app.get('/assets/:file', route, async (req, reply) => {
    const { file } = req.params as { file: string };
    if (!ASSET.test(file) || file.includes('..')) throw new AppError('not_found', 'No such file.', { path: req.url });
    const full = path.join(WEB_DIST, 'assets', file);
    // The build wrote Brotli and gzip copies beside the big files (apps/web/precompress.ts).
    const accepts = String(req.headers['accept-encoding'] ?? '');
    let body: Buffer | null = null;
    let encoding: string | null = null;
    for (const [enc, ext] of [
      ['br', '.br'],
      ['gzip', '.gz'],
    ] as const) {
      if (body || !new RegExp(`\\b${enc}\\b`).test(accepts)) continue;
      body = await readFile(full + ext).catch(() => null);
      if (body) encoding = enc;
    }
    body ??= await readFile(full).catch(() => null);
    if (!body) throw new AppError('not_found', 'No such file.', { path: req.url.split('?')[0] });
    if (encoding) reply.header('content-encoding', encoding);
    return reply
      .type(TYPES[path.extname(file)] ?? 'application/octet-stream')
      .header('vary', 'accept-encoding')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(body);
  });
}

/**
 * A browser opening an address the page has no screen for (`/no-such-page`, an old link) gets the
 * page with status 404, which shows its own not-found screen, rather than the API's JSON: asked
 * for HTML (`Accept: text/html`, as navigation asks), outside the API's and the files' paths. Any
 * other client still gets the 404 envelope.
 */
async function notFoundPage(req: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  const path = req.url.split('?')[0]!;
  if (/^\/(v1|assets|demo-photos)(\/|$)/.test(path)) return false;
  if (!/\btext\/html\b/i.test(String(req.headers.accept ?? ''))) return false;
  await sendIndex(req, reply, 404);
  return true;
}

/** The web client (apps/web, built) at `/`, beside the API behind the one base URL. */
export const webClient: AppPlugin = { name: 'web', plugin: webRoutes, notFound: notFoundPage };
