import type { Dsl, SearchEngine, SearchResult } from './types.ts';

export interface ResultCacheOptions {
  /** Longest life of an answer, in ms; 0 turns the cache off (every call goes to the engine). */
  ttlMs: number;
  maxEntries: number;
  /** How often the generation of `indices` is read. */
  pollMs: number;
  /** Aliases whose contents the cached answers depend on. */
  indices: string[];
  now?: () => number;
}

/** Counts since start, and the state a scrape reports. */
export interface ResultCacheStats {
  hits: number;
  misses: number;
  /** Calls that joined an identical engine call already under way. */
  coalesced: number;
  /** Calls made without the cache because the generation was not known recently enough. */
  bypassed: number;
  entries: number;
  /** Age of the last successful generation reading, in seconds (null before the first). */
  generationAgeS: number | null;
}

/** The engine calls the cache serves: the same signatures as `SearchEngine`'s. */
export interface CachedReads {
  search<T = unknown>(index: string, body: Dsl, params?: Record<string, unknown>): Promise<SearchResult<T>>;
  count(index: string, body: Dsl): Promise<number>;
}

export interface ResultCache extends CachedReads {
  stats(): ResultCacheStats;
  /**
   * The index generation while its last reading is recent enough for cached answers to be served
   * (off, never read, or not read lately: null). Other caches of answers derived from the index
   * key by it, with the same staleness bound.
   */
  currentGeneration(): string | null;
  /** Ages (seconds) of the answers served from the cache since the last call (at most 10,000 kept). */
  takeServedAges(): number[];
  close(): void;
}

/** Margin over the poll interval within which a generation reading still counts as current. */
const FRESH_MARGIN_MS = 150;

interface Entry {
  /** When the engine call that produced it started: its answer is at least as new as that. */
  at: number;
  value: unknown;
}

/**
 * Engine answers kept for a short while and shared, keyed by the request (operation, index and
 * the body, which the builders make from the normalized parameters) and the index generation.
 *
 * The generation is read from the engine itself every `pollMs` (`indexGeneration`: per
 * concrete index behind `indices`, the refreshes that changed what searches see and the
 * document count, from index statistics, which the engine answers outside its search queue).
 * It changes with the refresh that makes a change visible, and a rebuilt index has other
 * concrete names; a new generation drops every entry. Answers are served from the cache only
 * while the last reading was asked for less than `pollMs` + 150 ms ago: no answer outlives the
 * refresh that changed it by more than that, and while the engine cannot be read every call
 * goes to it.
 *
 * Identical calls made while one is under way wait for it (coalescing): N guests opening the
 * same view at once cost one engine call. Answers are shared objects: callers must not change
 * them. Nothing per user is cached: callers add `is_favorite` and the like afterwards.
 */
export function createResultCache(engine: SearchEngine, opts: ResultCacheOptions): ResultCache {
  const now = opts.now ?? Date.now;
  const entries = new Map<string, Entry>();
  const pending = new Map<string, Promise<unknown>>();
  const counts = { hits: 0, misses: 0, coalesced: 0, bypassed: 0 };
  let servedAges: number[] = [];
  let generation: string | null = null;
  let readAt = 0;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;

  async function readGeneration(): Promise<void> {
    // A reading describes the index as it was when it was asked for, at the latest.
    const asked = now();
    try {
      const next = await engine.indexGeneration(opts.indices.join(','));
      if (next !== generation) {
        generation = next;
        entries.clear();
      }
      readAt = asked;
    } catch {
      // Not current any more: calls bypass the cache until a reading succeeds.
    }
  }

  const poll = async () => {
    await readGeneration();
    if (!closed) timer = setTimeout(() => void poll(), opts.pollMs).unref();
  };
  if (opts.ttlMs > 0) void poll();

  function current(t: number): string | null {
    if (opts.ttlMs <= 0 || generation === null || t - readAt > opts.pollMs + FRESH_MARGIN_MS) return null;
    return generation;
  }

  function through<V>(op: string, index: string, body: Dsl, call: () => Promise<V>): Promise<V> {
    if (opts.ttlMs <= 0) return call();
    const t = now();
    const gen = current(t);
    if (gen === null) {
      counts.bypassed++;
      return call();
    }
    const key = `${gen}\u0000${op}\u0000${index}\u0000${JSON.stringify(body)}`;
    const hit = entries.get(key);
    if (hit && t - hit.at < opts.ttlMs) {
      counts.hits++;
      if (servedAges.length < 10_000) servedAges.push((t - hit.at) / 1000);
      return Promise.resolve(hit.value as V);
    }
    const inFlight = pending.get(key);
    if (inFlight) {
      counts.coalesced++;
      return inFlight as Promise<V>;
    }
    counts.misses++;
    const p = call().then((value) => {
      // Kept only if its generation is still the current one.
      if (generation === gen) {
        if (entries.size >= opts.maxEntries) entries.delete(entries.keys().next().value!);
        entries.delete(key);
        entries.set(key, { at: t, value });
      }
      return value;
    });
    pending.set(key, p);
    const done = () => void pending.delete(key);
    p.then(done, done);
    return p;
  }

  return {
    search: <T>(index: string, body: Dsl, params?: Record<string, unknown>) =>
      through(params ? `search ${JSON.stringify(params)}` : 'search', index, body, () =>
        engine.search<T>(index, body, params),
      ),
    count: (index: string, body: Dsl) => through('count', index, body, () => engine.count(index, body)),
    currentGeneration: () => current(now()),
    stats() {
      return {
        ...counts,
        entries: entries.size,
        generationAgeS: generation === null ? null : (now() - readAt) / 1000,
      };
    },
    takeServedAges() {
      const ages = servedAges;
      servedAges = [];
      return ages;
    },
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      entries.clear();
    },
  };
}
