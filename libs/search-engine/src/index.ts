import { createElasticsearchEngine } from './elasticsearch.ts';
import { createOpenSearchEngine } from './opensearch.ts';
import type { EngineKind, SearchEngine } from './types.ts';

export type * from './types.ts';

/** The adapter for `engine`; everything engine-specific stays inside it. */
export function createSearchEngine(
  engine: EngineKind,
  url: string,
  opts: { requestTimeoutMs?: number } = {},
): SearchEngine {
  return engine === 'elasticsearch' ? createElasticsearchEngine(url, opts) : createOpenSearchEngine(url, opts);
}
export { withCallTiming, type EngineCallObserver } from './timing.ts';
export { createResultCache, type CachedReads, type ResultCache, type ResultCacheStats } from './result-cache.ts';
