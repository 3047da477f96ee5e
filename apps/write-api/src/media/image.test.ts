import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { declaredKind, sniffImage } from './image.ts';

describe('image type sniffing', () => {
  it('recognises JPEG, PNG, WebP and HEIC by their bytes, and nothing else', async () => {
    const make = (f: 'jpeg' | 'png' | 'webp') =>
      sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
        .toFormat(f)
        .toBuffer();
    expect(sniffImage(await make('jpeg'))).toBe('jpeg');
    expect(sniffImage(await make('png'))).toBe('png');
    expect(sniffImage(await make('webp'))).toBe('webp');
    const heif = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypheic', 'latin1'), Buffer.alloc(12)]);
    expect(sniffImage(heif)).toBe('heic');
    const avif = Buffer.concat([Buffer.from([0, 0, 0, 24]), Buffer.from('ftypavif', 'latin1'), Buffer.alloc(12)]);
    expect(sniffImage(avif)).toBeNull();
    expect(sniffImage(Buffer.from('GIF89a....'))).toBeNull();
    expect(sniffImage(Buffer.alloc(0))).toBeNull();
  });

  it('maps declared content types, ignoring parameters and case', () => {
    expect(declaredKind('image/JPEG; charset=binary')).toBe('jpeg');
    expect(declaredKind('image/heif')).toBe('heic');
    expect(declaredKind('image/gif')).toBeNull();
    expect(declaredKind(undefined)).toBeNull();
  });
});
