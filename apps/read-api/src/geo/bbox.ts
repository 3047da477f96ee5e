/** Geographic shapes the search and events filters share (WGS84 degrees). */

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
