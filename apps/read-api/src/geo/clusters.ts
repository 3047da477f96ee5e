import type { BBox } from './bbox.ts';

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

/**
 * Grid precision for a zoom: `zoom + CELL_ZOOM_OFFSET`, made coarser while the box would hold
 * more cells than `maxCells` (a box far larger than one screen at that zoom), so that the cells
 * always cover the whole box and never only its densest part.
 */
export function gridPrecision(zoom: number, bbox: BBox | undefined, maxCells: number): number {
  let p = Math.min(zoom + CELL_ZOOM_OFFSET, MAX_TILE_PRECISION);
  while (p > 0 && cellsSpanned(bbox, p) > maxCells) p--;
  return p;
}
