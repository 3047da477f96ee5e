/** A query-DSL body (or a part of one: a query, a clause, aggregations) as plain JSON. */
export type Dsl = Record<string, unknown>;

export type EngineKind = 'opensearch' | 'elasticsearch';

/**
 * The only module that talks to the search engine. Callers pass plain query-DSL bodies and get
 * plain JSON back; an adapter per engine (OpenSearch, Elasticsearch) puts its official client
 * behind this surface, so query code, mappings and projections are the same for both.
 */
export interface SearchEngine {
  /** Which engine this adapter talks to (from configuration, known even while it is down). */
  readonly engine: EngineKind;
  /**
   * Answers when the engine does and the indices matching `indexPattern` (all of them when not
   * given) have every primary shard; a pattern that matches nothing is healthy. Returns the
   * engine and its version, for `/health`.
   */
  ping(indexPattern?: string): Promise<EngineInfo>;
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
   * What searches of `index` (names, aliases or patterns, comma-separated) can see, as a string
   * that changes when a refresh makes a change visible: per concrete index, its searcher
   * refreshes and document count. Index statistics, answered outside the search queue, so it
   * stays quick while searches wait.
   */
  indexGeneration(index: string): Promise<string>;
  /** The mapping `_meta` of each concrete index `index` (a name, alias or pattern) resolves to. */
  getMappingMeta(index: string): Promise<Record<string, Record<string, unknown>>>;
  /**
   * Deletes what the query matches among every document written before the call (the index is
   * refreshed first); returns how many were deleted. A scan of ids plus `_bulk`
   * deletes on every engine (`_delete_by_query` lives in a module a minimal Elasticsearch lacks):
   * a document changed since the scan saw it is kept, as `conflicts=proceed` would.
   */
  deleteByQuery(index: string, body: Dsl, opts?: { refresh?: boolean }): Promise<number>;
  /** Every hit of a query, page by page (scroll), for verification and exports. */
  scan<T = unknown>(index: string, body: Dsl, pageSize?: number): AsyncGenerator<Array<ScanHit<T>>>;
  close(): Promise<void>;
}

export interface ScanHit<T> {
  _id: string;
  _index: string;
  _source: T;
  _version?: number;
  _seq_no?: number;
  _primary_term?: number;
}

export interface EngineInfo {
  engine: EngineKind;
  version: string;
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
  /** `_id` and `_source` are absent when the request loads no stored field (`stored_fields: _none_`). */
  hits: Array<{
    _id: string;
    _score: number | null;
    _source: T;
    fields?: Record<string, unknown[]>;
    sort?: unknown[];
    /** Names of the named clauses (`_name`) the hit matched. */
    matched_queries?: string[];
  }>;
  aggregations?: Record<string, any>;
}

/** What `_bulk` answers, cut to what callers read (`BULK_FILTER_PATH`): item i is operation i's outcome. */
export interface BulkResult {
  errors: boolean;
  items: Array<Record<string, { status: number; error?: { type: string; reason: string } }>>;
}
