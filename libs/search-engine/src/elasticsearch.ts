import { Client, errors } from '@elastic/elasticsearch';
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

/**
 * The Elasticsearch 9 adapter, on `@elastic/elasticsearch` 9 (bodies as top-level request fields,
 * responses returned as they are). The client refuses OpenSearch (product check), so each engine
 * needs its own adapter.
 */
export function createElasticsearchEngine(url: string, opts: { requestTimeoutMs?: number } = {}): SearchEngine {
  const client = new Client({ node: url, requestTimeout: opts.requestTimeoutMs ?? 10_000 });
  const reads = createHttpReads(url, { requestTimeoutMs: opts.requestTimeoutMs ?? 10_000 });
  const engine: SearchEngine = {
    engine: 'elasticsearch',
    async ping(indexPattern) {
      const [health, info] = await Promise.all([
        client.cluster.health({ ...(indexPattern ? { index: indexPattern } : {}), timeout: '2s' }),
        client.info(),
      ]);
      if (health.status === 'red') throw new Error(`health of ${indexPattern ?? 'the cluster'} is red`);
      return { engine: 'elasticsearch', version: String(info.version?.number ?? 'unknown') };
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
        operations: operations as never,
        refresh: opts.refresh as never,
        filter_path: BULK_FILTER_PATH,
      });
      return res as unknown as BulkResult;
    },
    async indexExists(index) {
      return client.indices.exists({ index });
    },
    async createIndex(index, body, opts = {}) {
      const wait = opts.waitForActiveShards;
      await client.indices.create({
        index,
        ...body,
        ...(wait !== undefined ? { wait_for_active_shards: wait } : {}),
      } as never);
    },
    async deleteIndex(index) {
      await client.indices.delete({ index, ignore_unavailable: true });
    },
    async closeIndex(index) {
      await client.indices.close({ index });
    },
    async openIndex(index) {
      await client.indices.open({ index });
    },
    async clusterHealth(opts = {}) {
      const b = await client.cluster.health({
        ...(opts.index ? { index: opts.index } : {}),
        ...(opts.waitForStatus ? { wait_for_status: opts.waitForStatus } : {}),
        ...(opts.timeout ? { timeout: opts.timeout } : {}),
      });
      return {
        status: String(b.status).toLowerCase() as HealthStatus,
        timed_out: b.timed_out,
        number_of_nodes: b.number_of_nodes,
      };
    },
    async refresh(index) {
      await client.indices.refresh({ index });
    },
    async getAlias(alias) {
      try {
        return Object.keys(await client.indices.getAlias({ name: alias }));
      } catch (err) {
        if (err instanceof errors.ResponseError && err.meta.statusCode === 404) return [];
        throw err;
      }
    },
    async updateAliases(actions) {
      await client.indices.updateAliases({ actions: actions as never });
    },
    async putIndexSettings(index, settings) {
      await client.indices.putSettings({ index, settings } as never);
    },
    async indexGeneration(index) {
      const res = await client.indices.stats({
        index,
        metric: ['refresh', 'docs'],
        filter_path: GENERATION_FILTER_PATH,
      } as never);
      return generationOf(res);
    },
    async getMappingMeta(index) {
      const byIndex = await client.indices.getMapping({ index });
      return Object.fromEntries(
        Object.entries(byIndex).map(([name, m]) => [name, (m.mappings?._meta ?? {}) as Record<string, unknown>]),
      );
    },
    deleteByQuery: (index, body, opts) => deleteByScan(engine, index, body, opts),
    async *scan<T>(index: string, body: Dsl, pageSize = 1000) {
      let res = (await client.search({ index, scroll: '1m', size: pageSize, ...body } as never)) as any;
      let scrollId = res._scroll_id as string | undefined;
      try {
        for (;;) {
          const hits = res.hits.hits as Array<ScanHit<T>>;
          if (!hits.length) return;
          yield hits;
          res = await client.scroll({ scroll_id: scrollId!, scroll: '1m' });
          scrollId = res._scroll_id ?? scrollId;
        }
      } finally {
        if (scrollId) await client.clearScroll({ scroll_id: scrollId }).catch(() => {});
      }
    },
    close: async () => {
      await Promise.all([client.close(), reads.close()]);
    },
  };
  return engine;
}
