import type { Dsl } from '@guest/search-engine';
import type { BBox } from './filters.ts';

/**
 * Map clusters of the search map and the events map: a geotile grid whose precision follows the
 * zoom, up to `CLUSTER_MAX_ZOOM`; beyond it single points.
 */

/** Up to this zoom the map gets clusters; beyond it, points (spec 8: "up to 12 clusters"). */
export const CLUSTER_MAX_ZOOM = 12;
/**
 * Grid cells are this many zoom levels finer than the map's tiles: at 256 px tiles a cell is
 * 64 px on screen, about the size of a cluster marker, so clusters cover the view evenly.
 */
export const CELL_ZOOM_OFFSET = 2;
/** The finest precision of a geotile grid. */
export const MAX_TILE_PRECISION = 29;

function tileX(lon: number, p: number): number {
  return ((lon + 180) / 360) * 2 ** p;
}
function tileY(lat: number, p: number): number {
  const clamped = Math.max(-85.05112878, Math.min(85.05112878, lat));
  const r = (clamped * Math.PI) / 180;
  return ((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2) * 2 ** p;
}

/** Number of grid cells of precision `p` a box spans (the whole world without a box). */
export function cellsSpanned(bbox: BBox | undefined, p: number): number {
  if (!bbox) return 4 ** p;
  const width = bbox.minLon <= bbox.maxLon ? bbox.maxLon - bbox.minLon : 360 - (bbox.minLon - bbox.maxLon);
  const across = Math.floor(tileX(-180 + width, p)) + 1;
  const down = Math.floor(tileY(bbox.minLat, p)) - Math.floor(tileY(bbox.maxLat, p)) + 1;
  return across * down;
}

/** Grid precision for a zoom: `CELL_ZOOM_OFFSET` levels finer than the map's tiles. */
export function cellPrecision(zoom: number): number {
  return Math.min(zoom + CELL_ZOOM_OFFSET, MAX_TILE_PRECISION);
}

/**
 * Grid precision for a zoom and a box: `cellPrecision(zoom)`, made coarser while the box would
 * hold more cells than `maxCells` (a box far larger than one screen at that zoom), so that the
 * cells always cover the whole box and never only its densest part.
 */
export function gridPrecision(zoom: number, bbox: BBox | undefined, maxCells: number): number {
  let p = cellPrecision(zoom);
  while (p > 0 && cellsSpanned(bbox, p) > maxCells) p--;
  return p;
}

/**
 * The `cells` aggregation of a cluster map: a geotile grid of `precision`, at most `size` cells,
 * each with the centroid (`centre`) and the bounds of its objects, and `extra` sub-aggregations
 * (the events map counts distinct events with one).
 */
export function clusterCells(precision: number, size: number, extra: Dsl = {}): Dsl {
  return {
    geotile_grid: { field: 'location', precision, size },
    aggs: {
      ...extra,
      centre: { geo_centroid: { field: 'location' } },
      bounds: { geo_bounds: { field: 'location' } },
    },
  };
}

export interface ClusterBody {
  lat: number;
  lon: number;
  count: number;
  bbox: [number, number, number, number];
}

export interface CellBucket {
  key: string;
  doc_count: number;
  centre: { location?: { lat: number; lon: number } };
  bounds: { bounds?: { top_left: { lat: number; lon: number }; bottom_right: { lat: number; lon: number } } };
}

/**
 * Clusters from the `cells` aggregation of `clusterCells`: at most `maxCells` (`truncated` when the
 * grid had more), each counting `countOf` its bucket (default: the documents in the cell).
 */
export function parseClusters<B extends CellBucket = CellBucket>(
  aggregations: Record<string, any> | undefined,
  maxCells: number,
  countOf: (bucket: B) => number = (b) => b.doc_count,
): { clusters: ClusterBody[]; truncated: boolean } {
  const buckets: B[] = aggregations?.cells?.buckets ?? [];
  const clusters = buckets.slice(0, maxCells).flatMap((b) => {
    const c = b.centre.location;
    const bb = b.bounds.bounds;
    if (!c || !bb) return [];
    return [
      {
        lat: c.lat,
        lon: c.lon,
        count: countOf(b),
        bbox: [bb.top_left.lon, bb.bottom_right.lat, bb.bottom_right.lon, bb.top_left.lat] as [
          number,
          number,
          number,
          number,
        ],
      },
    ];
  });
  return { clusters, truncated: buckets.length > maxCells };
}
