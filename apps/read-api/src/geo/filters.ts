import type { Dsl } from '@guest/search-engine';

/**
 * Geographic filters the search and events routes share (WGS84 degrees), on the `location`
 * field both the listings and the events index have (or another geo_point field).
 */

/** A box `minLon,minLat,maxLon,maxLat`; minLon > maxLon crosses the antimeridian. */
export interface BBox {
  minLon: number;
  minLat: number;
  maxLon: number;
  maxLat: number;
}

export interface LatLon {
  lat: number;
  lon: number;
}

/** Objects inside the box (one crossing the antimeridian too: the engine reads it west to east). */
export function boundingBoxFilter(bbox: BBox, field = 'location'): Dsl {
  return {
    geo_bounding_box: {
      [field]: {
        top_left: { lat: bbox.maxLat, lon: bbox.minLon },
        bottom_right: { lat: bbox.minLat, lon: bbox.maxLon },
      },
    },
  };
}

/** Objects within `radiusM` metres of `point`. */
export function withinRadiusFilter(point: LatLon, radiusM: number, field = 'location'): Dsl {
  return { geo_distance: { distance: `${radiusM}m`, [field]: { lat: point.lat, lon: point.lon } } };
}
