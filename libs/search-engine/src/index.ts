import { Client } from '@opensearch-project/opensearch';

/** A query-DSL body (or a part of one: a query, a clause, aggregations) as plain JSON. */
export type Dsl = Record<string, unknown>;

/**
 * The only module that talks to the search engine. Callers pass plain query-DSL bodies and get
 * plain JSON back, so another engine client (Elasticsearch) can be put behind the same surface
 * without touching query code.
 */
export interface SearchEngine {
  /**
   * Answers when the engine does and the indices matching `indexPattern` (all of them when not
   * given) have every primary shard; a pattern that matches nothing is healthy.
   */
  ping(indexPattern?: string): Promise<void>;
  search<T = unknown>(index: string, body: Dsl, params?: Record<string, unknown>): Promise<SearchResult<T>>;
  count(index: string, body: Dsl): Promise<number>;
  bulk(operations: unknown[], opts?: { refresh?: boolean | 'wait_for' }): Promise<BulkResult>;
  indexExists(index: string): Promise<boolean>;
  createIndex(index: string, body: Record<string, unknown>): Promise<void>;
  deleteIndex(index: string): Promise<void>;
  refresh(index: string): Promise<void>;
  getAlias(alias: string): Promise<string[]>;
  updateAliases(actions: unknown[]): Promise<void>;
  putIndexSettings(index: string, settings: Record<string, unknown>): Promise<void>;
  /** Deletes what the query matches; returns how many were deleted. */
  deleteByQuery(index: string, body: Dsl, opts?: { refresh?: boolean }): Promise<number>;
  /** Every hit of a query, page by page (scroll), for verification and exports. */
  scan<T = unknown>(
    index: string,
    body: Dsl,
    pageSize?: number,
  ): AsyncGenerator<Array<{ _id: string; _source: T; _version?: number }>>;
  raw: Client;
  close(): Promise<void>;
}

export interface SearchResult<T> {
  took: number;
  total: number;
  hits: Array<{ _id: string; _score: number | null; _source: T; sort?: unknown[] }>;
  aggregations?: Record<string, any>;
}

export interface BulkResult {
  took: number;
  errors: boolean;
  items: Array<Record<string, { _id: string; status: number; error?: { type: string; reason: string } }>>;
}

export function createSearchEngine(url: string, opts: { requestTimeoutMs?: number } = {}): SearchEngine {
  const client = new Client({ node: url, requestTimeout: opts.requestTimeoutMs ?? 10_000 });
  return {
    raw: client,
    async ping(indexPattern) {
      const res = await client.cluster.health({ ...(indexPattern ? { index: indexPattern } : {}), timeout: '2s' });
      const status = (res.body as { status?: string }).status;
      if (status === 'red') throw new Error(`health of ${indexPattern ?? 'the cluster'} is red`);
    },
    async search<T>(index: string, body: Dsl, params: Record<string, unknown> = {}) {
      const res = await client.search({ index, body, ...params } as never);
      const b = res.body as any;
      const total = typeof b.hits.total === 'number' ? b.hits.total : (b.hits.total?.value ?? 0);
      return { took: b.took, total, hits: b.hits.hits, aggregations: b.aggregations } as SearchResult<T>;
    },
    async count(index, body) {
      const res = await client.count({ index, body } as never);
      return (res.body as { count: number }).count;
    },
    async bulk(operations, opts = {}) {
      const res = await client.bulk({ body: operations as never, refresh: opts.refresh as never });
      return res.body as unknown as BulkResult;
    },
    async indexExists(index) {
      const res = await client.indices.exists({ index });
      return res.body === true;
    },
    async createIndex(index, body) {
      await client.indices.create({ index, body } as never);
    },
    async deleteIndex(index) {
      await client.indices.delete({ index, ignore_unavailable: true } as never);
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
    async deleteByQuery(index, body, opts = {}) {
      const res = await client.deleteByQuery({
        index,
        body,
        conflicts: 'proceed',
        refresh: opts.refresh ?? false,
      } as never);
      return (res.body as { deleted?: number }).deleted ?? 0;
    },
    async *scan<T>(index: string, body: Dsl, pageSize = 1000) {
      let res = await client.search({ index, scroll: '1m', size: pageSize, body } as never);
      let scrollId = (res.body as any)._scroll_id as string | undefined;
      try {
        for (;;) {
          const hits = (res.body as any).hits.hits as Array<{ _id: string; _source: T; _version?: number }>;
          if (!hits.length) return;
          yield hits;
          res = await client.scroll({ scroll_id: scrollId, scroll: '1m' } as never);
          scrollId = (res.body as any)._scroll_id ?? scrollId;
        }
      } finally {
        if (scrollId) await client.clearScroll({ scroll_id: scrollId } as never).catch(() => {});
      }
    },
    close: () => client.close(),
  };
}
