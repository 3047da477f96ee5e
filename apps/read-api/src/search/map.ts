import type { Dsl } from '@guest/search-engine';
import { cellsSpanned, clusterCells, gridPrecision, rectBounds, TILE_MARGIN, type TileRect } from '../geo/clusters.ts';
import { boundingBoxFilter, type BBox } from '../geo/filters.ts';
import type { Filters } from './params.ts';
import type { MapPointBody } from './schemas.ts';
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

/**
 * The clusters of the tiles of `rect` (precision `precision`) for the filters without their box:
 * cells a later box that holds these tiles wholly can reuse. The query reaches `TILE_MARGIN`
 * beyond the tiles, so that no object the engine puts in one of them is missed at a border;
 * cells of the tiles around are the caller's to leave out.
 */
export function buildTileClusterRequest(f: Filters, ctx: QueryContext, precision: number, rect: TileRect): Dsl {
  const b = rectBounds(precision, rect);
  const around: BBox = {
    minLon: b.minLon - TILE_MARGIN,
    maxLon: b.maxLon + TILE_MARGIN,
    minLat: b.minLat - TILE_MARGIN,
    maxLat: b.maxLat + TILE_MARGIN,
  };
  const cells = (rect.x1 - rect.x0 + 3) * (rect.y1 - rect.y0 + 3);
  return {
    size: 0,
    track_total_hits: false,
    query: buildListingQuery({ ...f, bbox: undefined }, ctx, { filter: [ON_MAP, boundingBoxFilter(around)] }),
    aggs: { cells: clusterCells(precision, cells) },
  };
}

/**
 * The clusters of the box's frame around the tiles of `inner`, which lie wholly inside it: the
 * box's own query, narrowed to four strips that reach `TILE_MARGIN` into `inner` (the caller keeps
 * only the cells of tiles outside `inner`).
 */
export function buildEdgeClusterRequest(
  f: Filters & { bbox: BBox },
  ctx: QueryContext,
  precision: number,
  inner: TileRect,
  maxCells: number,
): Dsl {
  const box = f.bbox;
  const r = rectBounds(precision, inner);
  const strips: BBox[] = [
    { minLon: box.minLon, maxLon: box.maxLon, minLat: r.maxLat - TILE_MARGIN, maxLat: box.maxLat },
    { minLon: box.minLon, maxLon: box.maxLon, minLat: box.minLat, maxLat: r.minLat + TILE_MARGIN },
    { minLon: box.minLon, maxLon: r.minLon + TILE_MARGIN, minLat: r.minLat, maxLat: r.maxLat },
    { minLon: r.maxLon - TILE_MARGIN, maxLon: box.maxLon, minLat: r.minLat, maxLat: r.maxLat },
  ];
  const frame: Dsl = { bool: { should: strips.map((s) => boundingBoxFilter(s)), minimum_should_match: 1 } };
  return {
    size: 0,
    track_total_hits: false,
    query: buildListingQuery(f, ctx, { filter: [ON_MAP, frame] }),
    aggs: { cells: clusterCells(precision, maxCells + 1) },
  };
}

/** What identifies the tiles' cells of `buildTileClusterRequest` apart from the tiles themselves. */
export function clusterTileScope(f: Filters, ctx: QueryContext, precision: number): string {
  return `${precision} ${JSON.stringify(buildListingQuery({ ...f, bbox: undefined }, ctx, { filter: [ON_MAP] }))}`;
}

export const POINT_FIELDS = ['id', 'kind', 'location', 'price_minor', 'currency'] as const;

/** A map hit as the engine gives it: doc values of `POINT_FIELDS`. */
export interface MapHit {
  fields?: Record<string, unknown[]>;
}

/**
 * How a map hit is fetched: doc values only. A street-level map fetches hundreds of hits, and
 * loading each one's stored `_source` (or even its `_id`) was most of the engine's work: 500
 * points of a busy view took 15 ms with `_source` and 4.5 ms this way, on both engines alike.
 */
const POINT_FETCH: Dsl = { _source: false, stored_fields: '_none_', docvalue_fields: [...POINT_FIELDS] };

/** The most hits one grid cell may return (the engine's `index.max_inner_result_window`). */
const MAX_HITS_PER_CELL = 100;

/**
 * A street-level map in one search: the first `maxPoints` hits in rank order with the total, and,
 * for when more objects match than the map may show, a sample over the box as an aggregation of
 * the same search. The first `maxPoints` in rank order would bunch wherever the best-ranked
 * objects happen to be and leave parts of the view empty, so each cell of a grid over the box
 * (at most `maxPoints` cells) gives its best objects, and `samplePoints` takes them round-robin.
 *
 * One search, not the ranked hits first and the sample only when they were truncated: the engine
 * evaluates the query once and the API waits for one answer. Replaying the captured requests of
 * 74 busy street-level views one at a time took 8.4 ms a view as two searches and 6.6 ms as one;
 * a view with fewer objects than the cap pays for the sample it does not use (0.7 -> 1.0 ms).
 */
export function buildPointsRequest(f: Filters, ctx: QueryContext, zoom: number, maxPoints: number): Dsl {
  const precision = gridPrecision(zoom, f.bbox, maxPoints);
  const perCell = Math.min(MAX_HITS_PER_CELL, 2 * Math.ceil(maxPoints / cellsSpanned(f.bbox, precision)));
  const sort = buildSort('relevance', { hasText: hasText(f, ctx), near: f.near });
  return {
    size: maxPoints,
    track_total_hits: true,
    ...POINT_FETCH,
    query: buildListingQuery(f, ctx, { filter: [ON_MAP] }),
    sort,
    aggs: {
      cells: {
        geotile_grid: { field: 'location', precision, size: maxPoints },
        aggs: { best: { top_hits: { size: perCell, ...POINT_FETCH, sort } } },
      },
    },
  };
}

/**
 * What a street-level map reads of its answer: the total, each hit's doc values and each sampled
 * hit's. The rest (each hit's score and sort values; each inner hit's index name and each cell's
 * key and totals) was over a third of a busy view's 245 KB, and the engine took about as long to
 * write it as the API to read it.
 */
export const POINTS_PARAMS = {
  filter_path: 'took,hits.total,hits.hits.fields,aggregations.cells.buckets.best.hits.hits.fields',
};

/**
 * A map hit's doc values as a point; null when one is missing. A geo point's doc value is its
 * encoded position ("lat, lon" text on OpenSearch, an object or GeoJSON elsewhere), a hair off
 * what was indexed (under 1e-7 degrees): six decimals give it back.
 */
export function pointFromHit(hit: MapHit): MapPointBody | null {
  const f = hit.fields;
  if (!f) return null;
  const id = f.id?.[0];
  const price = f.price_minor?.[0];
  const currency = f.currency?.[0];
  const kind = f.kind?.[0];
  if (typeof id !== 'number' || typeof price !== 'number' || typeof currency !== 'string' || typeof kind !== 'string')
    return null;
  const at = f.location?.[0];
  let lat: number;
  let lon: number;
  if (typeof at === 'string') {
    // Read in place, without split/map/trim arrays: a busy view's answer has over a thousand of
    // these. Number() skips the blank after the comma.
    const comma = at.indexOf(',');
    if (comma <= 0 || comma === at.length - 1) return null;
    lat = Number(at.slice(0, comma));
    lon = Number(at.slice(comma + 1));
  } else if (at && typeof at === 'object') {
    const o = at as { lat?: unknown; lon?: unknown; coordinates?: unknown[] };
    const [x, y] = Array.isArray(o.coordinates) ? o.coordinates : [o.lon, o.lat];
    if (typeof x !== 'number' || typeof y !== 'number') return null;
    lat = y;
    lon = x;
  } else return null;
  if (!Number.isFinite(lat) || !Number.isFinite(lon)) return null;
  return { id, kind: kind as MapPointBody['kind'], lat: round6(lat), lon: round6(lon), price_minor: price, currency };
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

/** Every hit of `hits` that reads as a point, in their order. */
export function pointsFromHits(hits: MapHit[]): MapPointBody[] {
  const points: MapPointBody[] = [];
  for (const hit of hits) {
    const point = pointFromHit(hit);
    if (point) points.push(point);
  }
  return points;
}

/**
 * Round-robin over the cells of `buildPointsRequest`'s sample (each cell's best first, then each
 * cell's second, …), then topped up from `ranked` (the plain rank order) when cells with few
 * objects leave room: always `maxPoints` points when at least that many match. A hit becomes a
 * point only when it is taken: a busy view's answer holds about twice the points it shows.
 */
export function samplePoints(
  aggregations: Record<string, any> | undefined,
  ranked: MapHit[],
  maxPoints: number,
): MapPointBody[] {
  const cells: MapHit[][] = (aggregations?.cells?.buckets ?? []).map(
    (b: { best?: { hits?: { hits?: MapHit[] } } }) => b.best?.hits?.hits ?? [],
  );
  const picked = new Map<number, MapPointBody>();
  const take = (hit: MapHit) => {
    const point = pointFromHit(hit);
    if (point && !picked.has(point.id)) picked.set(point.id, point);
  };
  let longest = 0;
  for (const cell of cells) longest = Math.max(longest, cell.length);
  for (let round = 0; round < longest && picked.size < maxPoints; round++) {
    for (const cell of cells) {
      if (picked.size >= maxPoints) break;
      const hit = cell[round];
      if (hit) take(hit);
    }
  }
  for (const hit of ranked) {
    if (picked.size >= maxPoints) break;
    take(hit);
  }
  return [...picked.values()];
}
