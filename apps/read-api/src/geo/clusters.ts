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

/** A cluster with the grid cell it came from (`x`, `y` of the geotile at the grid's precision). */
export interface Cell extends ClusterBody {
  x: number;
  y: number;
}

/** The cells of a `cells` aggregation of `clusterCells`, in the engine's order. */
export function parseCells<B extends CellBucket = CellBucket>(
  aggregations: Record<string, any> | undefined,
  countOf: (bucket: B) => number = (b) => b.doc_count,
): Cell[] {
  const buckets: B[] = aggregations?.cells?.buckets ?? [];
  return buckets.flatMap((b) => {
    const c = b.centre.location;
    const bb = b.bounds.bounds;
    if (!c || !bb) return [];
    // A geotile key is "precision/x/y".
    const [, x, y] = b.key.split('/').map(Number);
    const bbox: ClusterBody['bbox'] = [bb.top_left.lon, bb.bottom_right.lat, bb.bottom_right.lon, bb.top_left.lat];
    return [{ x: x!, y: y!, lat: c.lat, lon: c.lon, count: countOf(b), bbox }];
  });
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
  const cells = parseCells(aggregations, countOf);
  return { clusters: cells.slice(0, maxCells).map(toClusterBody), truncated: cells.length > maxCells };
}

/** The largest first, then north to south and west to east: one order however the cells were gathered. */
export function byCountThenPlace(a: Cell, b: Cell): number {
  return b.count - a.count || a.y - b.y || a.x - b.x;
}

export function toClusterBody(c: Cell): ClusterBody {
  return { lat: c.lat, lon: c.lon, count: c.count, bbox: c.bbox };
}

/** Longitudes and latitudes of tile (`x`, `y`) of precision `p`. */
export function tileBounds(p: number, x: number, y: number): BBox {
  const n = 2 ** p;
  const lon = (i: number) => (i / n) * 360 - 180;
  const lat = (j: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * j) / n))) * 180) / Math.PI;
  return { minLon: lon(x), maxLon: lon(x + 1), minLat: lat(y + 1), maxLat: lat(y) };
}

/** Tiles `x0..x1` by `y0..y1` (inclusive) of one precision. */
export interface TileRect {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
}

/** Degrees kept between the box's sides and the tiles counted inside it, and added around a tile query. */
export const TILE_MARGIN = 1e-7;

/**
 * The tiles of precision `p` that lie inside the box by at least `TILE_MARGIN` on every side: their
 * cells are the same for every box that holds them, so they can be kept and shared between boxes.
 * Null when there are none, or for a box across the antimeridian or beyond the grid's latitudes
 * (the engine folds those points into the edge rows).
 */
export function interiorTiles(bbox: BBox, p: number): TileRect | null {
  if (bbox.minLon > bbox.maxLon || bbox.maxLat > 85 || bbox.minLat < -85) return null;
  const n = 2 ** p;
  let x0 = Math.max(0, Math.ceil(tileX(bbox.minLon + TILE_MARGIN, p)));
  let x1 = Math.min(n - 1, Math.floor(tileX(bbox.maxLon - TILE_MARGIN, p)) - 1);
  let y0 = Math.max(0, Math.ceil(tileY(bbox.maxLat - TILE_MARGIN, p)));
  let y1 = Math.min(n - 1, Math.floor(tileY(bbox.minLat + TILE_MARGIN, p)) - 1);
  // The tile arithmetic rounds: check the corners against the box and step inwards where needed.
  while (x0 <= x1 && tileBounds(p, x0, 0).minLon < bbox.minLon + TILE_MARGIN) x0++;
  while (x0 <= x1 && tileBounds(p, x1, 0).maxLon > bbox.maxLon - TILE_MARGIN) x1--;
  while (y0 <= y1 && tileBounds(p, 0, y0).maxLat > bbox.maxLat - TILE_MARGIN) y0++;
  while (y0 <= y1 && tileBounds(p, 0, y1).minLat < bbox.minLat + TILE_MARGIN) y1--;
  return x0 <= x1 && y0 <= y1 ? { x0, x1, y0, y1 } : null;
}

/** The box the tiles of `rect` cover. */
export function rectBounds(p: number, rect: TileRect): BBox {
  const nw = tileBounds(p, rect.x0, rect.y0);
  const se = tileBounds(p, rect.x1, rect.y1);
  return { minLon: nw.minLon, maxLon: se.maxLon, minLat: se.minLat, maxLat: nw.maxLat };
}
