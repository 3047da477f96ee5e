/**
 * A small in-memory cache for reference lists read from Postgres (DESIGN.md: small reference
 * lists may be cached in memory). Entries live `ttlS` seconds; 0 turns caching off. Concurrent
 * misses for one key share one load.
 */
export function createTtlCache<T>(ttlS: number) {
  const entries = new Map<string, { at: number; value: Promise<T> }>();
  return {
    get(key: string, load: () => Promise<T>): Promise<T> {
      if (ttlS <= 0) return load();
      const hit = entries.get(key);
      if (hit && performance.now() - hit.at < ttlS * 1000) return hit.value;
      const value = load();
      entries.set(key, { at: performance.now(), value });
      value.catch(() => entries.delete(key));
      return value;
    },
    clear: () => entries.clear(),
  };
}
