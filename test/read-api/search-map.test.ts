import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCatalogText } from '@guest/indexer';
import { readApi } from '@guest/read-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { loadCatalog, loadCatalogText, search } from './search/support.ts';

/**
 * Spec 4.7 map: up to zoom 12 clusters (count, centre, bbox), beyond that points (at most
 * MAP_MAX_POINTS, `truncated` beyond), `city_only` objects left off, `total` of objects on the map.
 * Clusters must cover the box evenly at every zoom: for each zoom a screen-sized box (about
 * 1024x614 px) somewhere on the globe is filled with an even grid of listings, and the clusters
 * must reach every part of it.
 */
const MAX_POINTS = 300;
const ZOOMS = [3, 8, 12, 15] as const;
const CENTRES: Record<(typeof ZOOMS)[number], [number, number]> = {
  3: [0, -90],
  8: [10, 100],
  12: [20, 120],
  15: [30, 140],
};
const COLS = 20;
const ROWS = 16;

function screen(zoom: number) {
  const [lat, lon] = CENTRES[zoom as (typeof ZOOMS)[number]];
  const w = (360 / 2 ** zoom) * 4;
  const h = w * 0.6;
  return { minLon: lon - w / 2, maxLon: lon + w / 2, minLat: lat - h / 2, maxLat: lat + h / 2 };
}
const bboxParam = (b: ReturnType<typeof screen>) => `${b.minLon},${b.minLat},${b.maxLon},${b.maxLat}`;

function gridCatalog(): string {
  const lines = [
    { type: 'currency', code: 'THB', name: { en: 'Baht' }, minor_units: 2 },
    { type: 'place', external_id: 'G-WORLD', level: 'country', slug: 'grid-world', name: { en: 'Grid' } },
  ];
  for (const zoom of ZOOMS) {
    const b = screen(zoom);
    for (let r = 0; r < ROWS; r++) {
      for (let c = 0; c < COLS; c++) {
        lines.push({
          type: 'listing',
          external_id: `G${zoom}-${r}-${c}`,
          kind: 'food',
          status: 'published',
          title: { en: `Grid ${zoom} ${r} ${c}` },
          original_lang: 'en',
          place: 'G-WORLD',
          // Cell centres of an even ROWS x COLS grid inside the box.
          location: {
            lat: b.minLat + ((r + 0.5) / ROWS) * (b.maxLat - b.minLat),
            lon: b.minLon + ((c + 0.5) / COLS) * (b.maxLon - b.minLon),
            mode: 'exact',
          },
          price: { amount_minor: 1000 + r * COLS + c, currency: 'THB', unit: 'item' },
          created_at: '2026-01-01T00:00:00Z',
          food: { format: 'cafe', diets: [], alcohol: false },
        } as never);
      }
    }
  }
  return lines.map((l) => JSON.stringify(l)).join('\n');
}

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ apps: [readApi], config: { MAP_MAX_POINTS: MAX_POINTS } });
  await importCatalogText(t.runtime.database, gridCatalog());
  await loadCatalog(t, 'catalog.ndjson');
});
afterAll(async () => t?.close());

describe('clusters cover the box evenly at every zoom up to 12', () => {
  for (const zoom of [3, 8, 12]) {
    it(`zoom ${zoom}`, async () => {
      const box = screen(zoom);
      const res = await search(t, 'map', { zoom, bbox: bboxParam(box), kind: 'food' });
      expect(res.status).toBe(200);
      const { clusters, points, total, truncated } = res.body;
      expect(points).toEqual([]);
      expect(truncated).toBe(false);
      expect(total).toBe(ROWS * COLS);
      expect(clusters.reduce((s: number, c: any) => s + c.count, 0)).toBe(total);
      // A similar number of clusters at every zoom: the grid follows the zoom.
      expect(clusters.length).toBeGreaterThanOrEqual(40);
      expect(clusters.length).toBeLessThanOrEqual(MAX_POINTS);
      for (const c of clusters) {
        const [minLon, minLat, maxLon, maxLat] = c.bbox;
        expect(minLon).toBeGreaterThanOrEqual(box.minLon - 1e-6);
        expect(maxLon).toBeLessThanOrEqual(box.maxLon + 1e-6);
        expect(minLat).toBeGreaterThanOrEqual(box.minLat - 1e-6);
        expect(maxLat).toBeLessThanOrEqual(box.maxLat + 1e-6);
        expect(c.lon).toBeGreaterThanOrEqual(minLon - 1e-6);
        expect(c.lon).toBeLessThanOrEqual(maxLon + 1e-6);
        expect(c.lat).toBeGreaterThanOrEqual(minLat - 1e-6);
        expect(c.lat).toBeLessThanOrEqual(maxLat + 1e-6);
      }
      // Evenly: every one of 4x4 parts of the box has cluster centres, and no cluster holds
      // more than a small share of the objects.
      const parts = new Set(
        clusters.map((c: any) => {
          const i = Math.min(3, Math.floor(((c.lon - box.minLon) / (box.maxLon - box.minLon)) * 4));
          const j = Math.min(3, Math.floor(((c.lat - box.minLat) / (box.maxLat - box.minLat)) * 4));
          return `${i}:${j}`;
        }),
      );
      expect(parts.size).toBe(16);
      expect(Math.max(...clusters.map((c: any) => c.count))).toBeLessThanOrEqual(total / 20);
    });
  }

  it('a box far larger than the screen still gets clusters all over it (coarser grid)', async () => {
    const res = await search(t, 'map', { zoom: 12, bbox: '-180,-60,180,60', kind: 'food' });
    // Every grid, plus the three food listings of the search fixture in Phuket.
    expect(res.body.total).toBe(ROWS * COLS * ZOOMS.length + 3);
    expect(res.body.truncated).toBe(false);
    expect(res.body.clusters.length).toBeLessThanOrEqual(MAX_POINTS);
    expect(res.body.clusters.reduce((s: number, c: any) => s + c.count, 0)).toBe(res.body.total);
  });
});

describe('points beyond zoom 12', () => {
  it(`zoom 15: points with id, kind, lat, lon, price; at most MAP_MAX_POINTS and truncated beyond`, async () => {
    const res = await search(t, 'map', { zoom: 15, bbox: bboxParam(screen(15)) });
    expect(res.body.clusters).toEqual([]);
    expect(res.body.total).toBe(ROWS * COLS);
    expect(res.body.points).toHaveLength(MAX_POINTS);
    expect(res.body.truncated).toBe(true);
    expect(res.body.points[0]).toEqual({
      id: expect.any(Number),
      kind: 'food',
      lat: expect.any(Number),
      lon: expect.any(Number),
      price_minor: expect.any(Number),
      currency: 'THB',
    });
  });

  it('zoom 13 with fewer objects than the cap: every one, not truncated', async () => {
    const b = screen(15);
    const half = { ...b, maxLon: (b.minLon + b.maxLon) / 2 };
    const res = await search(t, 'map', { zoom: 13, bbox: bboxParam(half) });
    expect(res.body.points).toHaveLength((ROWS * COLS) / 2);
    expect(res.body.total).toBe((ROWS * COLS) / 2);
    expect(res.body.truncated).toBe(false);
  });
});

describe('truncated points cover the box evenly', () => {
  // A cap far below the 320 objects of the box: in rank order (rating, then id, here the grid's
  // rows from the bottom) the first 64 would all sit in the bottom rows of the view.
  const CAP = 64;
  let small: TestApp;
  beforeAll(async () => {
    small = await startTestApp({ apps: [readApi], config: { MAP_MAX_POINTS: CAP } });
    await loadCatalogText(small, gridCatalog());
  });
  afterAll(async () => small?.close());

  it('zoom 15: every part of the box gets a fair share of the points, not only the best-ranked part', async () => {
    const box = screen(15);
    const res = await search(small, 'map', { zoom: 15, bbox: bboxParam(box), kind: 'food' });
    expect(res.body.total).toBe(ROWS * COLS);
    expect(res.body.truncated).toBe(true);
    const points: Array<{ id: number; lat: number; lon: number }> = res.body.points;
    expect(points).toHaveLength(CAP);
    expect(new Set(points.map((p) => p.id)).size).toBe(CAP);
    const perPart = new Map<string, number>();
    for (const p of points) {
      const i = Math.min(3, Math.floor(((p.lon - box.minLon) / (box.maxLon - box.minLon)) * 4));
      const j = Math.min(3, Math.floor(((p.lat - box.minLat) / (box.maxLat - box.minLat)) * 4));
      perPart.set(`${i}:${j}`, (perPart.get(`${i}:${j}`) ?? 0) + 1);
    }
    // 4x4 parts of 20 objects each; a fair share of 64 is 4 a part.
    expect(perPart.size).toBe(16);
    expect(Math.min(...perPart.values())).toBeGreaterThanOrEqual(2);
    expect(Math.max(...perPart.values())).toBeLessThanOrEqual(8);
  });

  it('a box where fewer grid cells hold objects still gets the full cap (topped up in rank order)', async () => {
    const box = screen(15);
    // Only the bottom quarter of the box holds objects: 80 of them, fewer cells than the cap.
    const lowBox = { ...box, maxLat: box.minLat + (box.maxLat - box.minLat) / 4 };
    const res = await search(small, 'map', { zoom: 15, bbox: bboxParam(lowBox), kind: 'food' });
    expect(res.body.total).toBe((ROWS * COLS) / 4);
    expect(res.body.points).toHaveLength(CAP);
    expect(res.body.truncated).toBe(true);
  });
});

describe('city_only objects are left off the map', () => {
  it('the feed and count find it, the map does not (clusters or points)', async () => {
    expect((await search(t, 'count', { q: 'Sukhumvit' })).body.count).toBe(1);
    for (const zoom of [5, 16]) {
      const res = await search(t, 'map', { zoom, q: 'Sukhumvit' });
      expect(res.body).toEqual({ clusters: [], points: [], total: 0, truncated: false });
    }
  });

  it('the filters apply to the map too', async () => {
    const res = await search(t, 'map', { zoom: 12, q: 'Kata', bbox: '98.2,7.7,98.4,7.95' });
    expect(res.body.total).toBe(5);
    expect(res.body.clusters.reduce((s: number, c: any) => s + c.count, 0)).toBe(5);
  });
});
