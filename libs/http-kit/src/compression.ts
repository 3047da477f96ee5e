import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export type Coding = 'br' | 'gzip';

/** Answers worth compressing: JSON (the API), text (metrics, the page), scripts. */
const COMPRESSIBLE = /^(application\/(json|[\w.+-]+\+json|javascript|xml)|text\/)/i;

/**
 * The coding to send for an `Accept-Encoding` header: Brotli, else gzip, each unless refused with
 * `q=0` (a `*` entry stands for both when they are not named); null when neither is accepted.
 */
export function chooseCoding(header: string | undefined): Coding | null {
  if (!header) return null;
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qp = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qp ? Number(qp.slice(2)) : 1;
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  const weight = (c: Coding) => q.get(c) ?? q.get('*') ?? 0;
  if (weight('br') > 0 && weight('br') >= weight('gzip')) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return null;
}

/** `Vary` with `Accept-Encoding` added once to what the route already set (`Accept-Language`). */
function addVary(reply: FastifyReply): void {
  const current = reply.getHeader('vary');
  const list = (Array.isArray(current) ? current.join(',') : String(current ?? ''))
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  if (list.includes('*') || list.some((v) => v.toLowerCase() === 'accept-encoding')) return;
  reply.header('vary', [...list, 'Accept-Encoding'].join(', '));
}

/**
 * The compressed bodies of payload buffers sent more than once: the read API's answer cache sends
 * the very same Buffer for every hit, so its answers are compressed once per coding, and go when
 * the cache lets the buffer go.
 */
const compressedOf = new WeakMap<Buffer, Partial<Record<Coding, Buffer>>>();

async function compress(body: Buffer, coding: Coding): Promise<Buffer> {
  const known = compressedOf.get(body);
  const hit = known?.[coding];
  if (hit) return hit;
  // Brotli quality 5 and gzip level 6: a 16 KB dictionary in well under a millisecond, within a
  // few per cent of the best ratio; the top qualities cost ten times the CPU for 3–5 % less.
  const out =
    coding === 'br'
      ? await brotli(body, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: 5,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        })
      : await gzipAsync(body, { level: 6 });
  compressedOf.set(body, { ...known, [coding]: out });
  return out;
}

/**
 * An `onSend` hook that sends answers of `minBytes` and more Brotli- or gzip-coded when the client
 * accepts it (DESIGN section 7). It is added to every route as a route-level hook, so it runs
 * after every instance-level `onSend` (the answer cache keeps the plain bytes, the caching
 * headers are final). Streams (files, the map proxy) and answers already coded pass as they are.
 * A strong `ETag` becomes weak on a coded answer (RFC 9110 8.8.3: another representation), and on
 * a 304 to a client that takes a coding: the client sends it back in `If-None-Match`, whose
 * comparison is weak, so 304s keep working.
 */
export function compressionHook(minBytes: number) {
  return async function compressAnswer(req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
    const status = reply.statusCode;
    // A 304 carries the validator the full answer would have carried: for a client that takes a
    // coding, the weak form (always correct, as If-None-Match compares weakly).
    if (status === 304) {
      if (chooseCoding(req.headers['accept-encoding'])) weaken(reply);
      return payload;
    }
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (status === 204 || status < 200) return payload;
    if (reply.getHeader('content-encoding') !== undefined) return payload;
    const type = String(reply.getHeader('content-type') ?? '');
    if (!COMPRESSIBLE.test(type)) return payload;
    const size = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
    if (size < minBytes) return payload;
    // Whoever keeps answers must keep the coded and the plain one apart, coded or not this time.
    addVary(reply);
    const coding = chooseCoding(req.headers['accept-encoding']);
    if (!coding || req.method === 'HEAD') return payload;
    const body = await compress(typeof payload === 'string' ? Buffer.from(payload) : payload, coding);
    reply.header('content-encoding', coding);
    reply.removeHeader('content-length');
    weaken(reply);
    return body;
  };
}

function weaken(reply: FastifyReply): void {
  const etag = reply.getHeader('etag');
  if (typeof etag === 'string' && etag.startsWith('"')) reply.header('etag', `W/${etag}`);
}
