import { describe, expect, it } from 'vitest';
import { demoPhotoPath, parseDemoPhotoName, photoUrl } from './photos.ts';

describe('photoUrl: what a client gets for a catalog photo', () => {
  it.each([
    [
      '/demo-photos/v1/stay-000001-0-480.webp',
      'https://api.example',
      'https://api.example/demo-photos/v1/stay-000001-0-480.webp',
    ],
    ['/demo-photos/v1/a.webp', 'http://127.0.0.1:8080/', 'http://127.0.0.1:8080/demo-photos/v1/a.webp'],
    ['/demo-photos/v1/a.webp', 'https://example.com/guest', 'https://example.com/guest/demo-photos/v1/a.webp'],
    ['https://img.example/S1/480.jpg', 'https://api.example', 'https://img.example/S1/480.jpg'],
    ['//img.example/S1/480.jpg', 'https://api.example', '//img.example/S1/480.jpg'],
  ])('%s with base %s → %s', (ref, base, url) => {
    expect(photoUrl(ref, base)).toBe(url);
  });
});

describe('demo photo names', () => {
  it('name every size of every photo, and read back as the photo they name', () => {
    for (const kind of ['stay', 'experience', 'service', 'transport', 'food'] as const)
      for (const size of ['thumb', 'medium', 'large'] as const) {
        const p = { kind, listing: 1234, index: 4, size };
        const file = demoPhotoPath(p).split('/').pop()!;
        expect(parseDemoPhotoName(file)).toEqual(p);
      }
    expect(demoPhotoPath({ kind: 'food', listing: 7, index: 0, size: 'large' })).toBe(
      '/demo-photos/v1/food-000007-0-2560.webp',
    );
  });

  it.each([
    'stay-000001-5-480.webp',
    'stay-000001-0-500.webp',
    'car-000001-0-480.webp',
    'stay-0000001-0-480.webp',
    'x',
  ])('refuses %s', (name) => expect(parseDemoPhotoName(name)).toBeNull());
});
