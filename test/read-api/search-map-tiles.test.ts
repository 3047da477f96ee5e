import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aliasName } from '@guest/catalog';
import { createServer } from '@guest/http-kit';
import { readApi } from '@guest/read-api';
import { createRuntime, type Runtime } from '@guest/runtime';
import { eventually } from '../support/eventually.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { generationKnown, loadCatalogText, metric, metricsText, search } from './search/support.ts';

/**
 * A cluster map moved across the catalog is answered from the cells of the tiles it still shows
 * wholly, kept from earlier boxes: what the guest gets must be exactly the box's own answer. Two
 * read APIs over the same index: one with the caches on, one with them off (each box asked of
 * the engine as it is), and every box of a walk over the map must read the same on both.
 */
const CENTRE = { lat: 13.75, lon: 100.5 };
const ZOOMS = [6, 9, 12] as const;

/** A screen at `zoom` (4 x 2.4 tiles of 256 px) moved by `dx`, `dy` screens. */
function screen(zoom: number, dx = 0, dy = 0) {
  const w = (360 / 2 ** zoom) * 4;
  const h = w * 0.6;
  const lon = CENTRE.lon + dx * w;
  const lat = CENTRE.lat + dy * h;
  return `${lon - w / 2},${lat - h / 2},${lon + w / 2},${lat + h / 2}`;
}

/** Longitude of the west side of tile `x` at precision `p`: objects placed on a tile border. */
const tileWest = (p: number, x: number) => (x / 2 ** p) * 360 - 180;

function catalog(): string {
  const lines: unknown[] = [
    { type: 'currency', code: 'THB', name: { en: 'Baht' }, minor_units: 2 },
    { type: 'place', external_id: 'T-LAND', level: 'country', slug: 'tile-land', name: { en: 'Tile land' } },
  ];
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const listing = (id: string, lat: number, lon: number, price: number) => ({
    type: 'listing',
    external_id: id,
    kind: 'food',
    status: 'published',
    title: { en: `Tile ${id}` },
    original_lang: 'en',
    place: 'T-LAND',
    location: { lat, lon, mode: 'exact' },
    price: { amount_minor: price, currency: 'THB', unit: 'item' },
    created_at: '2026-01-01T00:00:00Z',
    food: { format: 'cafe', diets: [], alcohol: false },
  });
  // Denser near the centre, spread over three screens of the widest zoom either way.
  const span = (360 / 2 ** ZOOMS[0]) * 4 * 1.5;
  for (let i = 0; i < 1500; i++) {
    const r = random() ** 2 * span;
    const a = random() * 2 * Math.PI;
    const lat = CENTRE.lat + r * 0.6 * Math.sin(a);
    const lon = CENTRE.lon + r * Math.cos(a);
    lines.push(listing(`T-${i}`, lat, lon, 10_000 + (i % 40) * 1000));
  }
  // Objects right on tile borders of every zoom's grid (the grid is two levels finer than the map).
  for (const zoom of ZOOMS) {
    const p = zoom + 2;
    const x = Math.floor(((CENTRE.lon + 180) / 360) * 2 ** p);
    for (let k = -3; k <= 3; k++) {
      lines.push(listing(`B-${zoom}-${k}`, CENTRE.lat + k * 0.001, tileWest(p, x + k), 20_000));
    }
  }
  return lines.map((l) => JSON.stringify(l)).join('\n');
}

let plain: TestApp;
let cachedRuntime: Runtime;
let cachedServer: FastifyInstance;
let cached: TestApp;
beforeAll(async () => {
  plain = await startTestApp({ apps: [readApi], config: { MAP_MAX_POINTS: 300 } });
  await loadCatalogText(plain, catalog());
  // The same index and database, with the caches on and a generation reading that stays current.
  cachedRuntime = createRuntime({
    ...plain.config,
    SEARCH_CACHE_TTL_MS: 60_000,
    SEARCH_CACHE_GENERATION_POLL_MS: 1000,
  });
  cachedServer = await createServer({ runtime: cachedRuntime, apps: [readApi], version: 'test', logger: false });
  await cachedServer.listen({ host: '127.0.0.1', port: 0 });
  const address = cachedServer.server.address();
  cached = { ...plain, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
  await generationKnown(cached.url);
}, 120_000);
afterAll(async () => {
  await cachedServer?.close();
  await cachedRuntime?.close();
  await plain?.close();
});

const tileOutcome = async (outcome: 'hit' | 'miss') =>
  metric(await metricsText(cached.url), 'search_cluster_tiles_total', `{outcome="${outcome}"}`) ?? 0;

/** Both answers for one box: equal in every cluster (centres to the engine's float noise). */
async function expectSameMap(params: Record<string, string | number>) {
  const [a, b] = await Promise.all([search(cached, 'map', params), search(plain, 'map', params)]);
  expect(a.status, JSON.stringify(params)).toBe(200);
  expect(b.status).toBe(200);
  expect(a.body.total, JSON.stringify(params)).toBe(b.body.total);
  expect(a.body.truncated).toBe(b.body.truncated);
  expect(a.body.points).toEqual([]);
  expect(a.body.clusters.map((c: any) => [c.count, c.bbox])).toEqual(
    b.body.clusters.map((c: any) => [c.count, c.bbox]),
  );
  a.body.clusters.forEach((c: any, i: number) => {
    expect(c.lat).toBeCloseTo(b.body.clusters[i].lat, 9);
    expect(c.lon).toBeCloseTo(b.body.clusters[i].lon, 9);
  });
  return a.body;
}

describe('a moved cluster map answered from kept tile cells', () => {
  it('reads exactly as the box asked of the engine, for every box of a walk at zooms 6, 9 and 12', async () => {
    const hitsBefore = await tileOutcome('hit');
    // Right, further right, up, diagonally, back to the start, and a fraction of a tile aside.
    const walk: Array<[number, number]> = [
      [0, 0],
      [0.3, 0],
      [0.7, 0],
      [0.7, 0.4],
      [0.2, -0.5],
      [0, 0],
      [0.013, 0.007],
    ];
    let nonEmpty = 0;
    for (const zoom of ZOOMS) {
      const filterSets: Array<Record<string, string | number>> = [
        {},
        { price_max: 30_000 },
        { kind: 'food', price_max: 20_000 },
      ];
      for (const filters of filterSets) {
        for (const [dx, dy] of walk) {
          const body = await expectSameMap({ zoom, bbox: screen(zoom, dx, dy), ...filters });
          if (body.total > 0) nonEmpty++;
        }
      }
    }
    expect(nonEmpty).toBeGreaterThan(40);
    // The walk came back over tiles it had seen: those were served from kept cells.
    expect((await tileOutcome('hit')) - hitsBefore).toBeGreaterThan(100);
  });

  it('objects on tile borders are counted once, in the cell the engine puts them in', async () => {
    for (const zoom of ZOOMS) {
      const body = await expectSameMap({ zoom, bbox: screen(zoom, 0.01, 0), kind: 'food' });
      expect(body.clusters.reduce((n: number, c: any) => n + c.count, 0)).toBe(body.total);
    }
  });

  it('a change made visible in the index reaches kept tiles too', async () => {
    const params = { zoom: 9, bbox: screen(9), kind: 'food' };
    const before = await expectSameMap(params);
    const moved = { ...params, bbox: screen(9, 0.25, 0) };
    await expectSameMap(moved);
    // A food listing near the centre (inside tiles both boxes hold wholly) leaves the index.
    const listings = aliasName(plain.config.INDEX_PREFIX, 'listings');
    const feed = await search(plain, 'listings', {
      kind: 'food',
      near: `${CENTRE.lat},${CENTRE.lon}`,
      sort: 'distance',
      limit: 1,
    });
    const gone = String(feed.body.items[0].id);
    const [concrete] = await plain.runtime.search.getAlias(listings);
    await plain.runtime.search.bulk([{ delete: { _index: concrete, _id: gone } }], { refresh: true });
    await eventually(
      'the kept tiles follow the change',
      async () => (await search(cached, 'map', params)).body.total as number,
      { until: (n) => n === before.total - 1 },
    );
    expect((await expectSameMap(params)).total).toBe(before.total - 1);
    await expectSameMap(moved);
  });
});
