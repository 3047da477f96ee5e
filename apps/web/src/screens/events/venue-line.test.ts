import { describe, expect, it } from 'vitest';
import { venueLine } from './venue-line.ts';

describe("an event's category, venue and place, each said once", () => {
  it.each([
    // The demo catalog's venues are named by category and place.
    ['Festivals', 'Festivals · Pathum Wan', 'Pathum Wan', 'Festivals · Pathum Wan'],
    ['Festivals', 'Festivals · Pathum Wan', null, 'Festivals · Pathum Wan'],
    ['Music', 'Blue Note Hall', 'Kata', 'Music · Blue Note Hall · Kata'],
    ['Music', 'Blue Note Hall, Kata', 'Kata', 'Music · Blue Note Hall · Kata'],
    ['Music', 'Blue Note Hall', null, 'Music · Blue Note Hall'],
    ['เทศกาล', 'เทศกาล · ปทุมวัน', 'ปทุมวัน', 'เทศกาล · ปทุมวัน'],
    ['节日', '节日 · 巴吞旺', '巴吞旺', '节日 · 巴吞旺'],
    ['Markets', 'markets · KATA', 'Kata', 'Markets · Kata'],
  ])('%s / %s / %s', (category, venue, place, line) => {
    expect(venueLine(category, { name: venue, place_name: place })).toBe(line);
  });
});
