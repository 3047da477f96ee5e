import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { repoRoot } from '@guest/config';

export const readFixture = (name: string) => readFile(path.join(repoRoot, 'test/fixtures/images', name));

/** A JPEG whose EXIF holds a camera and a GPS position (Phuket). */
export function jpegWithGps(): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366cc' } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'TestCam', Model: 'GPS-1' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '7/1 53/1 4900/100',
        GPSLongitudeRef: 'E',
        GPSLongitude: '98/1 23/1 3200/100',
      },
    })
    .toBuffer();
}

export const pngImage = () =>
  sharp({ create: { width: 40, height: 30, channels: 4, background: { r: 10, g: 200, b: 10, alpha: 0.5 } } })
    .png()
    .toBuffer();
export const webpImage = () =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: '#aa5500' } })
    .webp()
    .toBuffer();

/**
 * Tags of the GPS IFD of an EXIF block as sharp's metadata returns it ("Exif\0\0" + TIFF), or []
 * when there is none. Enough of a reader to prove that a position is (or is no longer) there.
 */
export function gpsTags(exif: Buffer | undefined): number[] {
  if (!exif || exif.length < 14) return [];
  const tiff = exif.subarray(exif.toString('latin1', 0, 4) === 'Exif' ? 6 : 0);
  const le = tiff.toString('latin1', 0, 2) === 'II';
  const u16 = (o: number) => (le ? tiff.readUInt16LE(o) : tiff.readUInt16BE(o));
  const u32 = (o: number) => (le ? tiff.readUInt32LE(o) : tiff.readUInt32BE(o));
  const entries = (ifd: number) => Array.from({ length: u16(ifd) }, (_, i) => ifd + 2 + i * 12);
  const gpsPointer = entries(u32(4)).find((e) => u16(e) === 0x8825);
  if (gpsPointer === undefined) return [];
  return entries(u32(gpsPointer + 8)).map((e) => u16(e));
}

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/**
 * A real decompression bomb: a valid 1-bit PNG of side×side pixels, all black. The file is tens of
 * kilobytes; decoded to RGB it would take side²×3 bytes (20000² → 1.2 GB).
 */
export function pngBomb(side = 20_000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const raw = Buffer.alloc((Math.ceil(side / 8) + 1) * side); // filter byte 0 + zero bits per row
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
