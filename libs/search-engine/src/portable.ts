import type { Dsl, SearchEngine, SearchResult } from './types.ts';

/**
 * What a search answer is read for (`SearchResult`): the engine leaves out the rest (`_index`,
 * `_shards`, `timed_out`, `max_score`), so less JSON crosses the wire and is parsed per request.
 */
export const SEARCH_FILTER_PATH =
  'took,hits.total,hits.hits._id,hits.hits._score,hits.hits._source,hits.hits.fields,hits.hits.sort,hits.hits.matched_queries,aggregations';

/**
 * What a `_bulk` answer is read for (`BulkResult`). The rest of each item (index, id, version,
 * shards, sequence numbers) made a 1,000-document answer 177 kB instead of 25 kB, for the engine to
 * write and the indexer to parse.
 */
export const BULK_FILTER_PATH = 'errors,items.*.status,items.*.error';

/** `_stats/refresh,docs` cut to what `indexGeneration` reads. */
export const GENERATION_FILTER_PATH = 'indices.*.primaries.refresh.external_total,indices.*.primaries.docs.count';

/** `indexGeneration` from the `_stats` answer: `index:refreshes:docs` per concrete index, sorted. */
export function generationOf(body: unknown): string {
  const indices = (body as { indices?: Record<string, { primaries?: any }> }).indices ?? {};
  return Object.entries(indices)
    .map(([name, s]) => `${name}:${s.primaries?.refresh?.external_total ?? ''}:${s.primaries?.docs?.count ?? ''}`)
    .sort()
    .join(',');
}

/** A search answer (cut down by `SEARCH_FILTER_PATH`: no hits means no `hits.hits`) as a `SearchResult`. */
export function searchResult<T>(body: unknown): SearchResult<T> {
  const b = body as {
    took?: number;
    hits?: { total?: number | { value?: number }; hits?: unknown[] };
    aggregations?: unknown;
  };
  const t = b.hits?.total;
  const total = typeof t === 'number' ? t : (t?.value ?? 0);
  return { took: b.took ?? 0, total, hits: b.hits?.hits ?? [], aggregations: b.aggregations } as SearchResult<T>;
}

const DELETE_PAGE = 1000;

/**
 * `_delete_by_query` in the portable subset: scan the matching ids (with sequence numbers) and
 * delete them with `_bulk`, guarded by `if_seq_no`/`if_primary_term` so that a document rewritten
 * since the scan saw it stays, as `conflicts=proceed` keeps it. Each delete goes to the concrete
 * index the hit came from: an alias over several indices takes no writes.
 */
export async function deleteByScan(
  engine: Pick<SearchEngine, 'scan' | 'bulk' | 'refresh'>,
  index: string,
  body: Dsl,
  opts: { refresh?: boolean } = {},
): Promise<number> {
  // A query sees only refreshed documents: one indexed less than a refresh interval ago would
  // otherwise survive for good (the indexer chaos test caught stale occurrences that way).
  await engine.refresh(index);
  let deleted = 0;
  const scanBody: Dsl = { ...body, _source: false, seq_no_primary_term: true };
  for await (const page of engine.scan(index, scanBody, DELETE_PAGE)) {
    const ops = page.map((hit) => ({
      delete: {
        _index: hit._index,
        _id: hit._id,
        ...(hit._seq_no !== undefined ? { if_seq_no: hit._seq_no, if_primary_term: hit._primary_term } : {}),
      },
    }));
    const res = await engine.bulk(ops);
    res.items.forEach((item, i) => {
      const r = item.delete;
      if (r && r.status === 200) deleted++;
      // 404 (already gone) and 409 (changed since the scan) are what conflicts=proceed skips.
      else if (r && r.status !== 404 && r.status !== 409) {
        const id = ops[i]!.delete._id;
        throw new Error(`delete of ${id} failed: ${r.error?.type ?? r.status} ${r.error?.reason ?? ''}`.trim());
      }
    });
  }
  if (opts.refresh) await engine.refresh(index);
  return deleted;
}
