import { describe, expect, it } from 'vitest';
import { SearchFilters } from './params.ts';
import {
  cellsSpanned,
  gridPrecision,
  interiorTiles,
  parseClusters,
  rectBounds,
  TILE_MARGIN,
  tileBounds,
} from '../geo/clusters.ts';
import { buildClusterRequest, buildPointsRequest, pointFromHit, samplePoints } from './map.ts';
import type { QueryContext } from './query.ts';

const ctx: QueryContext = { fx: { base: 'THB', rates: {} }, baseCurrency: 'THB' };

/** A box of about one 1024x768 px screen centred on (lat, lon) at a zoom. */
function screen(lat: number, lon: number, zoom: number) {
  const w = (360 / 2 ** zoom) * 4;
  const h = w * 0.6;
  return { minLon: lon - w / 2, maxLon: lon + w / 2, minLat: lat - h / 2, maxLat: lat + h / 2 };
}

describe('gridPrecision: the grid follows the zoom', () => {
  it('is two levels finer than the zoom for a screen-sized box', () => {
    for (const z of [3, 8, 12]) expect(gridPrecision(z, screen(7.9, 98.3, z), 500)).toBe(z + 2);
  });

  it('a screen-sized box spans a similar number of cells at every zoom', () => {
    const spans = [3, 8, 12].map((z) => cellsSpanned(screen(7.9, 98.3, z), z + 2));
    for (const s of spans) {
      expect(s).toBeGreaterThanOrEqual(100);
      expect(s).toBeLessThanOrEqual(300);
    }
  });

  it('gets coarser when the box would hold more cells than allowed, so the whole box is covered', () => {
    const world = { minLon: -180, maxLon: 180, minLat: -85, maxLat: 85 };
    const p = gridPrecision(12, world, 500);
    expect(cellsSpanned(world, p)).toBeLessThanOrEqual(500);
    expect(cellsSpanned(world, p + 1)).toBeGreaterThan(500);
  });
});

describe('map requests', () => {
  it('clusters: geotile_grid with centroid and bounds, only objects with a point, no hits', () => {
    const f = SearchFilters.parse({ kind: 'stay', bbox: '98.2,7.7,98.4,7.9' });
    const body = buildClusterRequest(f, ctx, 10, 500) as any;
    expect(body.size).toBe(0);
    expect(body.track_total_hits).toBe(true);
    expect(body.query.bool.filter).toContainEqual({ term: { has_point: true } });
    expect(body.query.bool.filter).toContainEqual({ term: { kind: 'stay' } });
    expect(body.aggs).toEqual({
      cells: {
        geotile_grid: { field: 'location', precision: 12, size: 501 },
        aggs: { centre: { geo_centroid: { field: 'location' } }, bounds: { geo_bounds: { field: 'location' } } },
      },
    });
  });

  it('points: at most the cap, only what a marker needs, and a sample over the box in the same search', () => {
    const bbox = { minLon: 98.29, minLat: 7.8, maxLon: 98.33, maxLat: 7.83 };
    const body = buildPointsRequest(SearchFilters.parse({}), ctx, 15, 500) as any;
    expect(body.size).toBe(500);
    expect(body.track_total_hits).toBe(true);
    expect(body._source).toBe(false);
    expect(body.stored_fields).toBe('_none_');
    expect(body.docvalue_fields).toEqual(['id', 'kind', 'location', 'price_minor', 'currency']);
    expect(body.query).toEqual({ bool: { filter: [{ term: { has_point: true } }] } });
    const boxed = buildPointsRequest({ ...SearchFilters.parse({}), bbox }, ctx, 15, 500) as any;
    const cells = boxed.aggs.cells;
    // Zoom 15 cells are 2 levels finer (precision 17) unless the box spans more than 500 of them.
    expect(cells.geotile_grid).toEqual({ field: 'location', precision: gridPrecision(15, bbox, 500), size: 500 });
    expect(cells.geotile_grid.precision).toBeLessThanOrEqual(17);
    expect(cells.aggs.best.top_hits).toMatchObject({ _source: false, stored_fields: '_none_', sort: boxed.sort });
    expect(cells.aggs.best.top_hits.size).toBeGreaterThanOrEqual(2);
    expect(cells.aggs.best.top_hits.size).toBeLessThanOrEqual(100);
  });

  it('parses buckets into clusters with [minLon, minLat, maxLon, maxLat] and flags truncation', () => {
    const bucket = (n: number) => ({
      key: `12/1/${n}`,
      doc_count: n,
      centre: { location: { lat: 7.8, lon: 98.3 } },
      bounds: { bounds: { top_left: { lat: 7.9, lon: 98.2 }, bottom_right: { lat: 7.7, lon: 98.4 } } },
    });
    const agg = { cells: { buckets: [bucket(3), bucket(2), bucket(1)] } };
    expect(parseClusters(agg, 5)).toEqual({
      clusters: [3, 2, 1].map((count) => ({ lat: 7.8, lon: 98.3, count, bbox: [98.2, 7.7, 98.4, 7.9] })),
      truncated: false,
    });
    const cut = parseClusters(agg, 2);
    expect(cut.clusters).toHaveLength(2);
    expect(cut.truncated).toBe(true);
  });
});

describe('samplePoints', () => {
  const point = (id: number) => ({ id, kind: 'stay', lat: 7.9, lon: 98.3, price_minor: 100, currency: 'THB' });
  // As the engine gives doc values: arrays, the geo point as "lat, lon" text.
  const hit = (id: number) => ({
    fields: { id: [id], kind: ['stay'], location: ['7.8999999, 98.3000001'], price_minor: [100], currency: ['THB'] },
  });
  const cell = (...ids: number[]) => ({ best: { hits: { hits: ids.map(hit) } } });

  it('takes each cell best first, round-robin, then tops up from the rank order without repeats', () => {
    const aggs = { cells: { buckets: [cell(1, 2, 3), cell(10), cell(20, 21)] } };
    expect(samplePoints(aggs, [hit(99)], 4).map((p) => p.id)).toEqual([1, 10, 20, 2]);
    expect(samplePoints(aggs, [], 1)[0]).toEqual(point(1));
    expect(samplePoints(aggs, [hit(1), hit(98), hit(99)], 8).map((p) => p.id)).toEqual([1, 10, 20, 2, 21, 3, 98, 99]);
  });

  it('no cells: the rank order alone', () => {
    expect(samplePoints(undefined, [hit(5), hit(6)], 1).map((p) => p.id)).toEqual([5]);
  });

  it('a hit without its doc values is passed over', () => {
    const aggs = { cells: { buckets: [{ best: { hits: { hits: [{ fields: { id: [7] } }, hit(8)] } } }, cell(30)] } };
    expect(samplePoints(aggs, [{}, hit(40)], 3).map((p) => p.id)).toEqual([30, 8, 40]);
  });
});

describe("pointFromHit: a hit's doc values as a map point", () => {
  const fields = { id: [3], kind: ['food'], price_minor: [2500], currency: ['THB'] };
  it('reads the geo point as OpenSearch gives it ("lat, lon") and as objects or GeoJSON', () => {
    const want = { id: 3, kind: 'food', lat: 7.818741, lon: 98.29316, price_minor: 2500, currency: 'THB' };
    expect(pointFromHit({ fields: { ...fields, location: ['7.818740995919168, 98.29316000640392'] } })).toEqual(want);
    expect(
      pointFromHit({ fields: { ...fields, location: [{ lat: 7.818740995919168, lon: 98.29316000640392 }] } }),
    ).toEqual(want);
    expect(
      pointFromHit({
        fields: { ...fields, location: [{ type: 'Point', coordinates: [98.29316000640392, 7.818740995919168] }] },
      }),
    ).toEqual(want);
    expect(pointFromHit({ fields: { ...fields, location: ['-33.5,-70.25'] } })).toMatchObject({
      lat: -33.5,
      lon: -70.25,
    });
  });

  it('null when a value is missing or the position does not read', () => {
    for (const location of [
      [],
      ['7.8'],
      ['7.8,'],
      [',98.3'],
      ['north, east'],
      [{ lat: 'x', lon: 1 }],
      [{ lat: null, lon: null }],
      [{ coordinates: [98.3] }],
      [42],
    ])
      expect(pointFromHit({ fields: { ...fields, location } })).toBeNull();
    expect(pointFromHit({ fields: { ...fields, id: [], location: ['7.8, 98.3'] } })).toBeNull();
    expect(pointFromHit({ fields: { ...fields, currency: [], location: ['7.8, 98.3'] } })).toBeNull();
    expect(pointFromHit({})).toBeNull();
  });
});

describe('interiorTiles: the tiles a box holds wholly', () => {
  it('every tile it names lies inside the box by the margin; the next one out on each side does not', () => {
    for (const zoom of [4, 9, 12]) {
      const box = screen(7.9, 98.3, zoom);
      const p = gridPrecision(zoom, box, 500);
      const r = interiorTiles(box, p)!;
      expect(r.x1 - r.x0 + 1).toBeGreaterThanOrEqual(14);
      expect(r.y1 - r.y0 + 1).toBeGreaterThanOrEqual(7);
      const inside = (b: ReturnType<typeof tileBounds>) =>
        b.minLon >= box.minLon + TILE_MARGIN &&
        b.maxLon <= box.maxLon - TILE_MARGIN &&
        b.minLat >= box.minLat + TILE_MARGIN &&
        b.maxLat <= box.maxLat - TILE_MARGIN;
      expect(inside(rectBounds(p, r))).toBe(true);
      expect(inside(tileBounds(p, r.x0 - 1, r.y0))).toBe(false);
      expect(inside(tileBounds(p, r.x1 + 1, r.y0))).toBe(false);
      expect(inside(tileBounds(p, r.x0, r.y0 - 1))).toBe(false);
      expect(inside(tileBounds(p, r.x0, r.y1 + 1))).toBe(false);
    }
  });

  it('none for a box smaller than a tile, across the antimeridian, or reaching beyond the grid', () => {
    expect(interiorTiles({ minLon: 98.3, maxLon: 98.30001, minLat: 7.9, maxLat: 7.90001 }, 14)).toBeNull();
    expect(interiorTiles({ minLon: 170, maxLon: -170, minLat: -10, maxLat: 10 }, 6)).toBeNull();
    expect(interiorTiles({ minLon: -180, maxLon: 180, minLat: -89, maxLat: 89 }, 3)).toBeNull();
  });

  it('a box whose sides are tile borders holds the tiles between them', () => {
    const t = tileBounds(10, 800, 480);
    const next = tileBounds(10, 801, 481);
    const box = { minLon: t.minLon, maxLon: next.maxLon, minLat: next.minLat, maxLat: t.maxLat };
    // The margin keeps tiles whose border is the box's own out: the frame query reads them.
    expect(interiorTiles(box, 10)).toBeNull();
    const wider = {
      ...box,
      minLon: box.minLon - 1e-3,
      maxLon: box.maxLon + 1e-3,
      minLat: box.minLat - 1e-3,
      maxLat: box.maxLat + 1e-3,
    };
    expect(interiorTiles(wider, 10)).toEqual({ x0: 800, x1: 801, y0: 480, y1: 481 });
  });
});
