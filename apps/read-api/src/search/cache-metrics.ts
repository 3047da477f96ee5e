import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { ResultCache } from '@guest/search-engine';
import type { AnswerCache } from './answer-cache.ts';

/**
 * The two caches of the search routes in `/metrics`. Engine answers (`search_cache_*`): how calls
 * were served (hit, miss, coalesced with one under way, bypass while the index generation is not
 * known), how many answers it holds, the age of the generation reading (what bounds staleness)
 * and the ages of the answers it served. Whole answers (`search_answer_cache_*`): how requests
 * were served, the memory held and the ages of the answers sent. Read at each scrape.
 */
export function registerCacheMetrics(registry: Registry, cache: ResultCache, answers: AnswerCache): void {
  new Counter({
    name: 'search_cache_requests_total',
    help: 'Search engine calls of the search routes by how the result cache served them.',
    labelNames: ['outcome'] as const,
    registers: [registry],
    collect() {
      const s = cache.stats();
      this.reset();
      this.inc({ outcome: 'hit' }, s.hits);
      this.inc({ outcome: 'miss' }, s.misses);
      this.inc({ outcome: 'coalesced' }, s.coalesced);
      this.inc({ outcome: 'bypass' }, s.bypassed);
    },
  });
  new Gauge({
    name: 'search_cache_hit_ratio',
    help: 'Share of search engine calls answered without a call of their own (hits and coalesced), since start.',
    registers: [registry],
    collect() {
      const s = cache.stats();
      const all = s.hits + s.misses + s.coalesced + s.bypassed;
      this.set(all ? (s.hits + s.coalesced) / all : 0);
    },
  });
  new Gauge({
    name: 'search_cache_entries',
    help: 'Engine answers held by the search result cache.',
    registers: [registry],
    collect() {
      this.set(cache.stats().entries);
    },
  });
  new Gauge({
    name: 'search_cache_generation_age_seconds',
    help: 'Age of the last reading of the index generation: cached answers are served only while it is recent.',
    registers: [registry],
    collect() {
      this.set(cache.stats().generationAgeS ?? -1);
    },
  });
  new Histogram({
    name: 'search_cache_served_age_seconds',
    help: 'Age of the answers served from the search result cache (time since their engine call started).',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
    collect() {
      for (const age of cache.takeServedAges()) this.observe(age);
    },
  });
  new Counter({
    name: 'search_answer_cache_requests_total',
    help: 'Requests of the shared search routes by how the answer cache served them (bypass: signed in, a later page, or no current generation).',
    labelNames: ['outcome'] as const,
    registers: [registry],
    collect() {
      const s = answers.stats();
      this.reset();
      this.inc({ outcome: 'hit' }, s.hits);
      this.inc({ outcome: 'miss' }, s.misses);
      this.inc({ outcome: 'bypass' }, s.bypassed);
    },
  });
  new Gauge({
    name: 'search_answer_cache_hit_ratio',
    help: 'Share of requests of the shared search routes answered from the answer cache, since start.',
    registers: [registry],
    collect() {
      const s = answers.stats();
      const all = s.hits + s.misses + s.bypassed;
      this.set(all ? s.hits / all : 0);
    },
  });
  new Gauge({
    name: 'search_answer_cache_bytes',
    help: 'Memory held by whole answers kept by the answer cache (estimated).',
    registers: [registry],
    collect() {
      this.set(answers.stats().bytes);
    },
  });
  new Histogram({
    name: 'search_answer_cache_served_age_seconds',
    help: 'Age of the answers sent from the answer cache (time since the request that produced them started).',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
    collect() {
      for (const age of answers.takeServedAges()) this.observe(age);
    },
  });
}
