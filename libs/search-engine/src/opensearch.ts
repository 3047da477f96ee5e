import { Client } from '@opensearch-project/opensearch';
import { createHttpReads, indexPath } from './http-reads.ts';
import {
  BULK_FILTER_PATH,
  deleteByScan,
  GENERATION_FILTER_PATH,
  generationOf,
  SEARCH_FILTER_PATH,
  searchResult,
} from './portable.ts';
import type { BulkResult, Dsl, HealthStatus, ScanHit, SearchEngine } from './types.ts';

/** The OpenSearch adapter, on `@opensearch-project/opensearch` (responses under `.body`). */
export function createOpenSearchEngine(url: string, opts: { requestTimeoutMs?: number } = {}): SearchEngine {
  const client = new Client({ node: url, requestTimeout: opts.requestTimeoutMs ?? 10_000 });
  const reads = createHttpReads(url, { requestTimeoutMs: opts.requestTimeoutMs ?? 10_000 });
  const engine: SearchEngine = {
    engine: 'opensearch',
    async ping(indexPattern) {
      const [health, info] = await Promise.all([
        client.cluster.health({ ...(indexPattern ? { index: indexPattern } : {}), timeout: '2s' }),
        client.info(),
      ]);
      const status = (health.body as { status?: string }).status;
      if (status === 'red') throw new Error(`health of ${indexPattern ?? 'the cluster'} is red`);
      return { engine: 'opensearch', version: String((info.body as any)?.version?.number ?? 'unknown') };
    },
    async search<T>(index: string, body: Dsl, params: Record<string, unknown> = {}) {
      const b = await reads.post(`${indexPath(index)}/_search`, body, { filter_path: SEARCH_FILTER_PATH, ...params });
      return searchResult<T>(b);
    },
    async count(index, body) {
      const b = await reads.post<{ count: number }>(`${indexPath(index)}/_count`, body, { filter_path: 'count' });
      return b.count;
    },
    async bulk(operations, opts = {}) {
      const res = await client.bulk({
        body: operations as never,
        refresh: opts.refresh as never,
        filter_path: BULK_FILTER_PATH,
      });
      return res.body as unknown as BulkResult;
    },
    async indexExists(index) {
      const res = await client.indices.exists({ index });
      return res.body === true;
    },
    async createIndex(index, body, opts = {}) {
      const wait = opts.waitForActiveShards;
      await client.indices.create({
        index,
        body,
        ...(wait !== undefined ? { wait_for_active_shards: String(wait) } : {}),
      } as never);
    },
    async deleteIndex(index) {
      await client.indices.delete({ index, ignore_unavailable: true } as never);
    },
    async closeIndex(index) {
      await client.indices.close({ index });
    },
    async openIndex(index) {
      await client.indices.open({ index });
    },
    async clusterHealth(opts = {}) {
      const res = await client.cluster.health({
        ...(opts.index ? { index: opts.index } : {}),
        ...(opts.waitForStatus ? { wait_for_status: opts.waitForStatus } : {}),
        ...(opts.timeout ? { timeout: opts.timeout } : {}),
      } as never);
      const b = res.body as { status: HealthStatus; timed_out: boolean; number_of_nodes: number };
      return { status: b.status, timed_out: b.timed_out, number_of_nodes: b.number_of_nodes };
    },
    async refresh(index) {
      await client.indices.refresh({ index });
    },
    async getAlias(alias) {
      try {
        const res = await client.indices.getAlias({ name: alias });
        return Object.keys(res.body as object);
      } catch (err: any) {
        if (err?.meta?.statusCode === 404) return [];
        throw err;
      }
    },
    async updateAliases(actions) {
      await client.indices.updateAliases({ body: { actions } } as never);
    },
    async putIndexSettings(index, settings) {
      await client.indices.putSettings({ index, body: settings } as never);
    },
    async indexGeneration(index) {
      const res = await client.indices.stats({
        index,
        metric: ['refresh', 'docs'],
        filter_path: GENERATION_FILTER_PATH,
      } as never);
      return generationOf(res.body);
    },
    async getMappingMeta(index) {
      const res = await client.indices.getMapping({ index });
      const byIndex = res.body as Record<string, { mappings?: { _meta?: Record<string, unknown> } }>;
      return Object.fromEntries(Object.entries(byIndex).map(([name, m]) => [name, m.mappings?._meta ?? {}]));
    },
    deleteByQuery: (index, body, opts) => deleteByScan(engine, index, body, opts),
    async *scan<T>(index: string, body: Dsl, pageSize = 1000) {
      let res = await client.search({ index, scroll: '1m', size: pageSize, body } as never);
      let scrollId = (res.body as any)._scroll_id as string | undefined;
      try {
        for (;;) {
          const hits = (res.body as any).hits.hits as Array<ScanHit<T>>;
          if (!hits.length) return;
          yield hits;
          res = await client.scroll({ scroll_id: scrollId, scroll: '1m' } as never);
          scrollId = (res.body as any)._scroll_id ?? scrollId;
        }
      } finally {
        if (scrollId) await client.clearScroll({ scroll_id: scrollId } as never).catch(() => {});
      }
    },
    close: async () => {
      await Promise.all([client.close(), reads.close()]);
    },
  };
  return engine;
}
