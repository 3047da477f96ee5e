import { describe, expect, it } from 'vitest';
import type { Cell } from '../geo/clusters.ts';
import { createClusterTiles, tileKey } from './cluster-tiles.ts';

const cell = (x: number, y: number, count: number): Cell => ({ x, y, count, lat: y, lon: x, bbox: [x, y, x, y] });
const rect = { x0: 0, x1: 2, y0: 0, y1: 1 };

function setUp(opts: { ttlMs?: number; maxTiles?: number } = {}) {
  const state = { t: 1000, generation: 'g1' as string | null };
  const tiles = createClusterTiles({
    ttlMs: opts.ttlMs ?? 30_000,
    maxTiles: opts.maxTiles ?? 1000,
    generation: () => state.generation,
    now: () => state.t,
  });
  return { state, tiles };
}

describe('cluster tiles', () => {
  it('keeps every tile of a stored rectangle, empty ones too, and names the rest as missing', () => {
    const { tiles } = setUp();
    const first = tiles.lookup('s', rect)!;
    expect(first.found.size).toBe(0);
    expect(first.missing).toEqual(rect);
    tiles.store(first, rect, new Map([[tileKey(1, 0), cell(1, 0, 5)]]));
    const wider = tiles.lookup('s', { x0: 0, x1: 3, y0: 0, y1: 1 })!;
    expect(wider.found.get(tileKey(1, 0))).toEqual(cell(1, 0, 5));
    expect(wider.found.get(tileKey(0, 0))).toBeNull();
    expect(wider.found.size).toBe(6);
    expect(wider.missing).toEqual({ x0: 3, x1: 3, y0: 0, y1: 1 });
    expect(tiles.stats()).toEqual({ hits: 6, misses: 6 + 2, tiles: 6 });
  });

  it('keeps filter sets apart', () => {
    const { tiles } = setUp();
    tiles.store(tiles.lookup('food', rect)!, rect, new Map());
    expect(tiles.lookup('stay', rect)!.found.size).toBe(0);
  });

  it('serves nothing under another generation, while the generation is unknown, or after the TTL', () => {
    const { state, tiles } = setUp({ ttlMs: 500 });
    tiles.store(tiles.lookup('s', rect)!, rect, new Map());
    state.generation = null;
    expect(tiles.lookup('s', rect)).toBeNull();
    state.generation = 'g2';
    expect(tiles.lookup('s', rect)!.found.size).toBe(0);
    tiles.store(tiles.lookup('s', rect)!, rect, new Map());
    state.t += 499;
    expect(tiles.lookup('s', rect)!.found.size).toBe(6);
    state.t += 1;
    expect(tiles.lookup('s', rect)!.found.size).toBe(0);
  });

  it('does not keep what was read under a generation that has ended meanwhile', () => {
    const { state, tiles } = setUp();
    const seen = tiles.lookup('s', rect)!;
    state.generation = 'g2';
    tiles.store(seen, rect, new Map());
    expect(tiles.lookup('s', rect)!.found.size).toBe(0);
    expect(tiles.stats().tiles).toBe(0);
  });

  it('holds at most maxTiles, dropping the filter sets used least recently', () => {
    const { tiles } = setUp({ maxTiles: 12 });
    tiles.store(tiles.lookup('a', rect)!, rect, new Map());
    tiles.store(tiles.lookup('b', rect)!, rect, new Map());
    tiles.lookup('a', rect);
    tiles.store(tiles.lookup('c', rect)!, rect, new Map());
    expect(tiles.stats().tiles).toBe(12);
    expect(tiles.lookup('b', rect)!.found.size).toBe(0);
    expect(tiles.lookup('a', rect)!.found.size).toBe(6);
  });

  it('is off with a TTL of 0', () => {
    const { tiles } = setUp({ ttlMs: 0 });
    expect(tiles.lookup('s', rect)).toBeNull();
  });
});
