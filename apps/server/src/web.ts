import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { repoRoot } from '@guest/config';
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

/**
 * The page's rules for the browser: its own scripts only (MapLibre's worker included), API calls
 * and the socket to this origin, images also from the API's public origin (the demo photos it
 * makes, absolute URLs of `PUBLIC_BASE_URL`, which may name another host than the page's) and
 * from HTTPS hosts (listing photos).
 */
function contentSecurityPolicy(apiOrigin: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "worker-src 'self' blob:",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' ${apiOrigin} data: blob: https:`,
    "connect-src 'self' ws: wss:",
    "font-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
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
    .header('content-security-policy', contentSecurityPolicy(new URL(publicBaseUrl(req)).origin))
    .header('x-content-type-options', 'nosniff')
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
      .header('x-content-type-options', 'nosniff')
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
