import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's anonymous 200 answers may be shared between guests while the index generation
     * they came from is current (map, count, price range, suggest, first feed pages).
     */
    sharedAnswer?: boolean;
  }
  interface FastifyRequest {
    /** Where this request's answer is to be kept (set on a miss), null otherwise. */
    sharedAnswerSlot: { key: string; generation: string; at: number } | null;
  }
}

export interface AnswerCacheOptions {
  /** Longest life of a kept answer, in ms; 0 keeps nothing. */
  ttlMs: number;
  /** Bytes of answers kept at most (the oldest go first). */
  maxBytes: number;
  /** The index generation while it is known to be current, else null (`ResultCache.currentGeneration`). */
  generation: () => string | null;
  now?: () => number;
}

export interface AnswerCacheStats {
  hits: number;
  misses: number;
  /** Requests not served from the cache although their route allows it: signed in, a later page, no current generation. */
  bypassed: number;
  entries: number;
  bytes: number;
}

export interface AnswerCache {
  stats(): AnswerCacheStats;
  /** Ages (seconds) of the answers served from the cache since the last call (at most 10,000 kept). */
  takeServedAges(): number[];
  clear(): void;
}

interface Entry {
  /** When the request that produced it started: the answer is at least as new as that. */
  at: number;
  /** The answer's body as it went out: written as it is, never encoded again. */
  payload: Buffer;
  contentType: string;
  bytes: number;
}

/**
 * Whole answers of the shared search routes, kept as the bytes that were sent, so that a repeated
 * view costs routing, the rate limit and one write: no validation, query building, engine call,
 * serialization or UTF-8 encoding (kept as text, a street-level map's answer was encoded anew
 * for every guest: the largest single cost of a repeated view). The engine-answer cache behind
 * the services (`createResultCache`) stays: it coalesces identical engine calls, normalizes what
 * the URL does not (parameter spelling), and serves signed-in feeds, whose `is_favorite` overlay
 * is never kept here.
 *
 * An answer is keyed by the index generation, the negotiated language, the path and the query
 * parameters in sorted order, and is served only while that generation is the current reading
 * (the same bound as the engine-answer cache: a change the index made visible shows up within
 * the generation poll plus 150 ms) and for at most `ttlMs`. Kept only: GET answers with status
 * 200 to a request without `Authorization` (a token, even a bad one, takes the full path: its
 * answer may be personal, or 401), and no `cursor` (later feed pages stay per request).
 */
export function registerAnswerCache(app: FastifyInstance, opts: AnswerCacheOptions): AnswerCache {
  const now = opts.now ?? Date.now;
  const entries = new Map<string, Entry>();
  const counts = { hits: 0, misses: 0, bypassed: 0 };
  let bytes = 0;
  let servedAges: number[] = [];
  let generationSeen: string | null = null;

  const drop = (key: string) => {
    const e = entries.get(key);
    if (!e) return;
    entries.delete(key);
    bytes -= e.bytes;
  };

  app.decorateRequest('sharedAnswerSlot', null);

  app.addHook('onRequest', async (req, reply) => {
    if (opts.ttlMs <= 0 || !req.routeOptions.config?.sharedAnswer || req.method !== 'GET') return;
    const generation = opts.generation();
    if (generation === null || req.headers.authorization !== undefined || hasCursor(req)) {
      counts.bypassed++;
      return;
    }
    if (generation !== generationSeen) {
      // A new generation: nothing kept describes the index any more.
      generationSeen = generation;
      entries.clear();
      bytes = 0;
    }
    const key = keyOf(req);
    const t = now();
    const hit = entries.get(key);
    if (hit && t - hit.at < opts.ttlMs) {
      counts.hits++;
      if (servedAges.length < 10_000) servedAges.push((t - hit.at) / 1000);
      return reply.header('content-type', hit.contentType).send(hit.payload);
    }
    if (hit) drop(key);
    counts.misses++;
    req.sharedAnswerSlot = { key, generation, at: t };
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const slot = req.sharedAnswerSlot;
    if (!slot || reply.statusCode !== 200 || typeof payload !== 'string') return payload;
    // Kept only if the index it describes is still the one searches see.
    if (opts.generation() !== slot.generation || generationSeen !== slot.generation) return payload;
    const body = Buffer.from(payload, 'utf8');
    const size = body.length + slot.key.length * 2 + 64;
    if (size > opts.maxBytes / 16) return body;
    drop(slot.key);
    while (bytes + size > opts.maxBytes && entries.size) drop(entries.keys().next().value!);
    const contentType = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
    entries.set(slot.key, { at: slot.at, payload: body, contentType, bytes: size });
    bytes += size;
    return body;
  });

  return {
    stats: () => ({ ...counts, entries: entries.size, bytes }),
    takeServedAges() {
      const ages = servedAges;
      servedAges = [];
      return ages;
    },
    clear() {
      entries.clear();
      bytes = 0;
    },
  };
}

function hasCursor(req: FastifyRequest): boolean {
  const q = req.query as Record<string, unknown> | undefined;
  return q !== undefined && q !== null && q.cursor !== undefined;
}

/** Path, language, and the query parameters in sorted order (their spelling in the URL does not matter). */
function keyOf(req: FastifyRequest): string {
  const q = (req.query ?? {}) as Record<string, unknown>;
  const names = Object.keys(q).sort();
  let key = `${req.routeOptions.url}\u0000${req.lang}`;
  for (const n of names) key += `\u0000${n}=${JSON.stringify(q[n])}`;
  return key;
}
