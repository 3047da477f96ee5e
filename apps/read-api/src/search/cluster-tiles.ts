import type { Cell, TileRect } from '../geo/clusters.ts';

/**
 * Cluster cells of map tiles, kept per filter set and grid precision so that a map moved or
 * zoomed out and back reuses the cells of the tiles it still shows wholly. A cell of a tile that
 * lies inside the box is the same whatever the rest of the box (its objects are all in it), so
 * only the tiles along the box's edges and the tiles not seen yet go to the engine.
 *
 * Staleness is the result cache's: cells are kept under the index generation they were read at and
 * served only while that generation is the current reading, and for at most `ttlMs` after the
 * engine call that produced them started.
 */
export interface ClusterTiles {
  /**
   * The kept cells of the tiles of `rect` under `scope` (null: a tile known to hold nothing), and
   * the smallest rectangle of the tiles not kept. Null when nothing may be served (cache off, or
   * the generation not read lately).
   */
  lookup(scope: string, rect: TileRect): TileLookup | null;
  /** Keeps the cells of every tile of `rect`: those in `cells`, the others as empty. */
  store(lookup: TileLookup, rect: TileRect, cells: ReadonlyMap<string, Cell>): void;
  stats(): { hits: number; misses: number; tiles: number };
}

export interface TileLookup {
  scope: string;
  generation: string;
  /** When the lookup was made: cells read after it are at least this new. */
  at: number;
  found: Map<string, Cell | null>;
  missing: TileRect | null;
}

export interface ClusterTilesOptions {
  ttlMs: number;
  /** The most tiles kept in all; the least recently used filter sets go first. */
  maxTiles: number;
  /** The current index generation, null while cached answers may not be served. */
  generation: () => string | null;
  now?: () => number;
}

interface Scope {
  generation: string;
  tiles: Map<string, { at: number; cell: Cell | null }>;
}

export const tileKey = (x: number, y: number) => `${x}/${y}`;

export function createClusterTiles(opts: ClusterTilesOptions): ClusterTiles {
  const now = opts.now ?? Date.now;
  const scopes = new Map<string, Scope>();
  let held = 0;
  const counts = { hits: 0, misses: 0 };

  function drop(key: string): void {
    const s = scopes.get(key);
    if (!s) return;
    held -= s.tiles.size;
    scopes.delete(key);
  }

  return {
    lookup(scope, rect) {
      if (opts.ttlMs <= 0) return null;
      const generation = opts.generation();
      if (generation === null) return null;
      const t = now();
      let kept = scopes.get(scope);
      if (kept && kept.generation !== generation) {
        drop(scope);
        kept = undefined;
      }
      if (kept) {
        // Most recently used last: eviction takes the first.
        scopes.delete(scope);
        scopes.set(scope, kept);
      }
      const found = new Map<string, Cell | null>();
      let missing: TileRect | null = null;
      for (let y = rect.y0; y <= rect.y1; y++) {
        for (let x = rect.x0; x <= rect.x1; x++) {
          const key = tileKey(x, y);
          const tile = kept?.tiles.get(key);
          if (tile && t - tile.at < opts.ttlMs) {
            found.set(key, tile.cell);
            continue;
          }
          missing = missing
            ? {
                x0: Math.min(missing.x0, x),
                x1: Math.max(missing.x1, x),
                y0: Math.min(missing.y0, y),
                y1: Math.max(missing.y1, y),
              }
            : { x0: x, x1: x, y0: y, y1: y };
        }
      }
      counts.hits += found.size;
      counts.misses += (rect.x1 - rect.x0 + 1) * (rect.y1 - rect.y0 + 1) - found.size;
      return { scope, generation, at: t, found, missing };
    },

    store(lookup, rect, cells) {
      // Read under a generation that is no longer current: not kept.
      if (opts.generation() !== lookup.generation) return;
      let kept = scopes.get(lookup.scope);
      if (!kept || kept.generation !== lookup.generation) {
        drop(lookup.scope);
        kept = { generation: lookup.generation, tiles: new Map() };
        scopes.set(lookup.scope, kept);
      }
      for (let y = rect.y0; y <= rect.y1; y++) {
        for (let x = rect.x0; x <= rect.x1; x++) {
          const key = tileKey(x, y);
          if (!kept.tiles.has(key)) held++;
          kept.tiles.set(key, { at: lookup.at, cell: cells.get(key) ?? null });
        }
      }
      while (held > opts.maxTiles) drop(scopes.keys().next().value!);
    },

    stats: () => ({ ...counts, tiles: held }),
  };
}
