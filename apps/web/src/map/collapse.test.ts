import { describe, expect, it } from 'vitest';
import { collapse, overlaps, type Mark } from './collapse.ts';

const size = (count: number) => Math.min(56, 26 + Math.log10(count + 1) * 10);
const pin = (id: number, x: number, y: number): Mark<number> => ({ item: id, x, y, w: 60, h: 24, count: 1 });

function noneOverlap(groups: Array<{ x: number; y: number; w: number; h: number }>) {
  for (let i = 0; i < groups.length; i++)
    for (let j = i + 1; j < groups.length; j++) expect(overlaps(groups[i]!, groups[j]!, 0)).toBe(false);
}

describe('markers that would overlap are collapsed', () => {
  it('leaves pins apart as they are', () => {
    const groups = collapse([pin(1, 0, 0), pin(2, 100, 0), pin(3, 0, 40)], size);
    expect(groups.map((g) => g.items)).toEqual([[1], [2], [3]]);
    expect(groups[1]).toMatchObject({ x: 100, y: 0, w: 60, h: 24, count: 1 });
  });

  it('puts pins of one building into one count marker at their centre', () => {
    const groups = collapse([pin(1, 0, 0), pin(2, 10, 4), pin(3, 200, 0)], size);
    expect(groups.map((g) => g.items)).toEqual([[1, 2], [3]]);
    expect(groups[0]).toMatchObject({ x: 5, y: 2, count: 2, w: size(2), h: size(2) });
  });

  it('merges clusters whose circles touch, adding their counts', () => {
    const cluster = (n: number, x: number): Mark<string> => ({
      item: `c${n}`,
      x,
      y: 0,
      w: size(n),
      h: size(n),
      count: n,
    });
    const groups = collapse([cluster(40, 0), cluster(3, 30), cluster(7, 300)], size);
    expect(groups.map((g) => g.count)).toEqual([43, 7]);
    expect(groups[0]!.items).toEqual(['c40', 'c3']);
  });

  it('leaves no two markers overlapping in a crowded street, and loses no object', () => {
    // 87 pins on a 400 × 300 px street map, placed by a fixed pseudo-random walk.
    let seed = 7;
    const next = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const marks = Array.from({ length: 87 }, (_, i) => pin(i, next() * 400, next() * 300));
    const groups = collapse(marks, size);
    noneOverlap(groups);
    expect(groups.reduce((n, g) => n + g.count, 0)).toBe(87);
    expect(new Set(groups.flatMap((g) => g.items)).size).toBe(87);
    expect(groups.length).toBeGreaterThan(5);
  });
});
