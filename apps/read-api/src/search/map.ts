import type { ListingDocument } from '@guest/catalog';
import type { Dsl } from '@guest/search-engine';
import { cellsSpanned, clusterCells, gridPrecision } from '../geo/clusters.ts';
import type { Filters } from './params.ts';
import { buildListingQuery, hasText, type QueryContext } from './query.ts';
import { buildSort } from './sort.ts';

/**
 * The search map (spec 4.7): up to `CLUSTER_MAX_ZOOM` clusters on a geotile grid whose precision
 * follows the zoom (geo/clusters.ts), beyond that single points. Pure builders; the service runs them.
 */

const ON_MAP: Dsl = { term: { has_point: true } };

export function buildClusterRequest(f: Filters, ctx: QueryContext, zoom: number, maxCells: number): Dsl {
  return {
    size: 0,
    track_total_hits: true,
    query: buildListingQuery(f, ctx, { filter: [ON_MAP] }),
    aggs: { cells: clusterCells(gridPrecision(zoom, f.bbox, maxCells), maxCells + 1) },
  };
}

export const POINT_SOURCE = ['id', 'kind', 'location', 'price_minor', 'currency'] as const;

export function buildPointsRequest(f: Filters, ctx: QueryContext, maxPoints: number): Dsl {
  return {
    size: maxPoints,
    track_total_hits: true,
    _source: [...POINT_SOURCE],
    query: buildListingQuery(f, ctx, { filter: [ON_MAP] }),
    sort: buildSort('relevance', { hasText: hasText(f, ctx), near: f.near }),
  };
}

/** The most hits one grid cell may return (the engine's `index.max_inner_result_window`). */
const MAX_HITS_PER_CELL = 100;

/**
 * Points when more objects match than the map may show: the first `maxPoints` in rank order would
 * bunch wherever the best-ranked objects happen to be and leave parts of the view empty, so each
 * cell of a grid over the box (at most `maxPoints` cells) gives its best objects instead, and
 * `samplePoints` takes them round-robin.
 */
export function buildSampledPointsRequest(f: Filters, ctx: QueryContext, zoom: number, maxPoints: number): Dsl {
  const precision = gridPrecision(zoom, f.bbox, maxPoints);
  const perCell = Math.min(MAX_HITS_PER_CELL, 2 * Math.ceil(maxPoints / cellsSpanned(f.bbox, precision)));
  return {
    size: 0,
    track_total_hits: false,
    query: buildListingQuery(f, ctx, { filter: [ON_MAP] }),
    aggs: {
      cells: {
        geotile_grid: { field: 'location', precision, size: maxPoints },
        aggs: {
          best: {
            top_hits: {
              size: perCell,
              _source: [...POINT_SOURCE],
              sort: buildSort('relevance', { hasText: hasText(f, ctx), near: f.near }),
            },
          },
        },
      },
    },
  };
}

/**
 * Round-robin over the cells of `buildSampledPointsRequest` (each cell's best first, then each
 * cell's second, …), then topped up from `ranked` (the plain rank order) when cells with few
 * objects leave room: always `maxPoints` points when at least that many match.
 */
export function samplePoints<T extends { id: number }>(
  aggregations: Record<string, any> | undefined,
  ranked: T[],
  maxPoints: number,
): T[] {
  const cells: T[][] = (aggregations?.cells?.buckets ?? []).map(
    (b: { best: { hits: { hits: Array<{ _source: T }> } } }) => b.best.hits.hits.map((h) => h._source),
  );
  const picked = new Map<number, T>();
  for (let round = 0; picked.size < maxPoints && cells.some((c) => c.length > round); round++) {
    for (const cell of cells) {
      const doc = cell[round];
      if (doc && picked.size < maxPoints) picked.set(doc.id, doc);
    }
  }
  for (const doc of ranked) {
    if (picked.size >= maxPoints) break;
    if (!picked.has(doc.id)) picked.set(doc.id, doc);
  }
  return [...picked.values()];
}

export function toMapPoint(doc: Pick<ListingDocument, (typeof POINT_SOURCE)[number]>) {
  return {
    id: doc.id,
    kind: doc.kind,
    lat: doc.location!.lat,
    lon: doc.location!.lon,
    price_minor: doc.price_minor,
    currency: doc.currency,
  };
}
