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
  /**
   * Creates an index; waits for `waitForActiveShards` copies of each shard (default 1, the
   * primary; 0 answers at once, as for an index whose shards may not be placed yet).
   */
  createIndex(index: string, body: Record<string, unknown>, opts?: { waitForActiveShards?: number }): Promise<void>;
  /** Deletes an index, or every index a pattern (`prefix-*`) matches; missing ones are ignored. */
  deleteIndex(index: string): Promise<void>;
  /** Closes an index: it keeps its data but answers no reads or writes until opened again. */
  closeIndex(index: string): Promise<void>;
  openIndex(index: string): Promise<void>;
  /**
   * Health of the cluster, or of the indices `index` matches; with `waitForStatus`, waits up to
   * `timeout` (e.g. `30s`) for that status or a better one (`timed_out` says whether it came).
   */
  clusterHealth(opts?: { index?: string; waitForStatus?: HealthStatus; timeout?: string }): Promise<ClusterHealth>;
  refresh(index: string): Promise<void>;
  getAlias(alias: string): Promise<string[]>;
  updateAliases(actions: unknown[]): Promise<void>;
  putIndexSettings(index: string, settings: Record<string, unknown>): Promise<void>;
  /**
   * Deletes what the query matches among every document written before the call (the index is
   * refreshed first: a query sees only refreshed documents, so one indexed less than a refresh
   * interval ago would otherwise survive for good); returns how many were deleted.
   */
  deleteByQuery(index: string, body: Dsl, opts?: { refresh?: boolean }): Promise<number>;
  /** Every hit of a query, page by page (scroll), for verification and exports. */
  scan<T = unknown>(
    index: string,
    body: Dsl,
    pageSize?: number,
  ): AsyncGenerator<Array<{ _id: string; _source: T; _version?: number }>>;
  close(): Promise<void>;
}

export type HealthStatus = 'green' | 'yellow' | 'red';

export interface ClusterHealth {
  status: HealthStatus;
  timed_out: boolean;
  number_of_nodes: number;
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
    async deleteByQuery(index, body, opts = {}) {
      await client.indices.refresh({ index });
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
export { withCallTiming, type EngineCallObserver } from './timing.ts';
