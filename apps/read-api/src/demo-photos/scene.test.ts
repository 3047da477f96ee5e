import { describe, expect, it } from 'vitest';
import { demoPhotoSvg, KIND_COLOURS } from './scene.ts';

describe('demo photo scenes', () => {
  it('draw the same picture for the same photo, another for another photo or listing', () => {
    const p = { kind: 'stay', listing: 42, index: 1, size: 'thumb' } as const;
    expect(demoPhotoSvg(p)).toBe(demoPhotoSvg({ ...p }));
    expect(demoPhotoSvg({ ...p, index: 2 })).not.toBe(demoPhotoSvg(p));
    expect(demoPhotoSvg({ ...p, listing: 43 })).not.toBe(demoPhotoSvg(p));
  });

  it('are as large as the size asks and drawn in the kind colour', () => {
    for (const [size, w, h] of [
      ['thumb', 480, 320],
      ['medium', 1600, 1067],
      ['large', 2560, 1707],
    ] as const) {
      const svg = demoPhotoSvg({ kind: 'food', listing: 1, index: 0, size });
      expect(svg).toContain(`width="${w}" height="${h}"`);
    }
    for (const [kind, colour] of Object.entries(KIND_COLOURS))
      expect(demoPhotoSvg({ kind: kind as keyof typeof KIND_COLOURS, listing: 9, index: 0, size: 'thumb' })).toContain(
        colour,
      );
  });
});
