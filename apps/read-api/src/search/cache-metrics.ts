import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { ResultCache } from '@guest/search-engine';
import type { AnswerCache } from './answer-cache.ts';
import type { ClusterTiles } from './cluster-tiles.ts';

/**
 * The two caches of the search routes in `/metrics`. Engine answers (`search_cache_*`): how calls
 * were served (hit, miss, coalesced with one under way, bypass while the index generation is not
 * known), how many answers it holds, the age of the generation reading (what bounds staleness)
 * and the ages of the answers it served. Tile cells of cluster maps (`search_cluster_tiles_*`):
 * tiles served from kept cells or read, and how many are kept. Whole answers (`search_answer_cache_*`): how requests
 * were served, the memory held and the ages of the answers sent. Read at each scrape.
 */
export function registerCacheMetrics(
  registry: Registry,
  cache: ResultCache,
  answers: AnswerCache,
  tiles: ClusterTiles,
): void {
  const m = scrapedMetrics(registry);
  m.outcomes(
    'search_cache_requests_total',
    'Search engine calls of the search routes by how the result cache served them.',
    () => {
      const s = cache.stats();
      return { hit: s.hits, miss: s.misses, coalesced: s.coalesced, bypass: s.bypassed };
    },
  );
  m.gauge(
    'search_cache_hit_ratio',
    'Share of search engine calls answered without a call of their own (hits and coalesced), since start.',
    () => {
      const s = cache.stats();
      const all = s.hits + s.misses + s.coalesced + s.bypassed;
      return all ? (s.hits + s.coalesced) / all : 0;
    },
  );
  m.gauge('search_cache_entries', 'Engine answers held by the search result cache.', () => cache.stats().entries);
  m.gauge(
    'search_cache_generation_age_seconds',
    'Age of the last reading of the index generation: cached answers are served only while it is recent.',
    () => cache.stats().generationAgeS ?? -1,
  );
  m.ages(
    'search_cache_served_age_seconds',
    'Age of the answers served from the search result cache (time since their engine call started).',
    () => cache.takeServedAges(),
  );

  m.outcomes(
    'search_cluster_tiles_total',
    'Tiles wholly inside a cluster map box by how they were served: kept cells (hit) or read from the engine (miss).',
    () => {
      const s = tiles.stats();
      return { hit: s.hits, miss: s.misses };
    },
  );
  m.gauge('search_cluster_tiles_kept', 'Cluster cells of map tiles kept for moved maps.', () => tiles.stats().tiles);

  m.outcomes(
    'search_answer_cache_requests_total',
    'Requests of the shared search routes by how the answer cache served them (bypass: signed in, a later page, or no current generation).',
    () => {
      const s = answers.stats();
      return { hit: s.hits, miss: s.misses, bypass: s.bypassed };
    },
  );
  m.gauge(
    'search_answer_cache_hit_ratio',
    'Share of requests of the shared search routes answered from the answer cache, since start.',
    () => {
      const s = answers.stats();
      const all = s.hits + s.misses + s.bypassed;
      return all ? s.hits / all : 0;
    },
  );
  m.gauge(
    'search_answer_cache_bytes',
    'Memory held by whole answers kept by the answer cache (estimated).',
    () => answers.stats().bytes,
  );
  m.ages(
    'search_answer_cache_served_age_seconds',
    'Age of the answers sent from the answer cache (time since the request that produced them started).',
    () => answers.takeServedAges(),
  );
}

/** Metrics whose values are read from a cache's own counters when `/metrics` is scraped. */
function scrapedMetrics(registry: Registry) {
  const registers = [registry];
  return {
    /** A counter by `outcome`, set to the counts since start. */
    outcomes(name: string, help: string, read: () => Record<string, number>) {
      new Counter({
        name,
        help,
        labelNames: ['outcome'] as const,
        registers,
        collect() {
          this.reset();
          for (const [outcome, n] of Object.entries(read())) this.inc({ outcome }, n);
        },
      });
    },
    gauge(name: string, help: string, read: () => number) {
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read());
        },
      });
    },
    /** Ages in seconds taken from the cache since the last scrape. */
    ages(name: string, help: string, take: () => number[]) {
      new Histogram({
        name,
        help,
        buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
        registers,
        collect() {
          for (const age of take()) this.observe(age);
        },
      });
    },
  };
}
