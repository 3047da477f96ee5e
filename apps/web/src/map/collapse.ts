/**
 * Markers that would overlap on the screen are collapsed into one count marker, at every zoom:
 * the API's clusters are cells of a grid, and two cells' centres can be a few pixels apart; at
 * street level two price pins of one building always are. Pure: screen boxes in, groups out.
 */
export interface Mark<T> {
  item: T;
  /** Centre on the screen (CSS pixels; the markers are anchored at their centre). */
  x: number;
  y: number;
  w: number;
  h: number;
  /** Objects it stands for (1 for a price pin, a cluster's count). */
  count: number;
}

export interface Group<T> {
  items: T[];
  x: number;
  y: number;
  w: number;
  h: number;
  count: number;
}

/** Pixels kept free between two markers. */
export const GAP = 2;

export function overlaps(a: { x: number; y: number; w: number; h: number }, b: typeof a, gap = GAP): boolean {
  return Math.abs(a.x - b.x) * 2 < a.w + b.w + 2 * gap && Math.abs(a.y - b.y) * 2 < a.h + b.h + 2 * gap;
}

/**
 * Groups `marks` (in rank order: the first of a group is its best) so that no two groups'
 * boxes overlap. A group of one keeps its mark's box; a larger one is centred at its members'
 * centre (weighted by count) with the box `sizeOf(count)` gives. Merging may make a group overlap
 * another: passes repeat until none do (each pass that merges has fewer groups, so it ends).
 */
export function collapse<T>(marks: Array<Mark<T>>, sizeOf: (count: number) => number): Array<Group<T>> {
  let groups = marks.map((m) => ({ members: [m], x: m.x, y: m.y, w: m.w, h: m.h, count: m.count }));
  for (;;) {
    // Larger groups first, then rank order: a crowd absorbs the pins around it.
    const order = groups.map((g, i) => ({ g, i })).sort((a, b) => b.g.count - a.g.count || a.i - b.i);
    const kept: typeof groups = [];
    let merged = false;
    for (const { g } of order) {
      const into = kept.find((k) => overlaps(k, g));
      if (!into) {
        kept.push(g);
        continue;
      }
      merged = true;
      const count = into.count + g.count;
      into.x = (into.x * into.count + g.x * g.count) / count;
      into.y = (into.y * into.count + g.y * g.count) / count;
      into.count = count;
      into.members.push(...g.members);
      into.w = into.h = sizeOf(count);
    }
    // Back in rank order of each group's best member.
    groups = kept.sort((a, b) => marks.indexOf(a.members[0]!) - marks.indexOf(b.members[0]!));
    if (!merged) break;
  }
  return groups.map((g) => ({ items: g.members.map((m) => m.item), x: g.x, y: g.y, w: g.w, h: g.h, count: g.count }));
}
