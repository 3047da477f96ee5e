import sharp, { type Metadata, type Sharp } from 'sharp';
import decodeHeic from 'heic-decode';

/**
 * The avatar pipeline, kept out of the route: recognise the real type from the bytes (whatever
 * the upload claims), refuse decompression bombs before decoding, then decode
 * (HEIC through libheif, since sharp's libvips lacks HEVC) and re-encode with sharp. The output
 * is a fresh JPEG: no EXIF (GPS included), no XMP, no IPTC, no ICC profile; orientation applied.
 */
export const IMAGE_KINDS = ['jpeg', 'png', 'webp', 'heic'] as const;
export type ImageKind = (typeof IMAGE_KINDS)[number];

/** Declared content types and the kind each names (a hint: the bytes decide). */
const DECLARED: Record<string, ImageKind> = {
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/pjpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/heic': 'heic',
  'image/heif': 'heic',
  'image/heic-sequence': 'heic',
  'image/heif-sequence': 'heic',
};

const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1']);

/** The image kind the bytes really are, by their signature; null for anything else. */
export function sniffImage(buf: Buffer): ImageKind | null {
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) return 'jpeg';
  if (buf.length >= 8 && buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return 'png';
  }
  if (buf.length >= 12 && buf.toString('latin1', 0, 4) === 'RIFF' && buf.toString('latin1', 8, 12) === 'WEBP') {
    return 'webp';
  }
  if (buf.length >= 12 && buf.toString('latin1', 4, 8) === 'ftyp') {
    if (HEIF_BRANDS.has(buf.toString('latin1', 8, 12))) return 'heic';
  }
  return null;
}

export function declaredKind(contentType: string | undefined): ImageKind | null {
  if (!contentType) return null;
  return DECLARED[contentType.split(';')[0]!.trim().toLowerCase()] ?? null;
}

export interface ImageLimits {
  maxMegapixels: number;
  /**
   * Lower for HEIC (issue 32 point 5): its decoder (libheif in WebAssembly) takes 0.7-2 s and
   * about 11 bytes a pixel for a large picture, where libvips streams JPEG, PNG and WebP.
   */
  maxHeicMegapixels: number;
  maxSidePx: number;
  jpegQuality: number;
}

/**
 * A refused upload: what the route answers as 400 `validation_error` on `file` with `reason`.
 * Plain data, so it crosses from the worker thread that decodes (apps/write-api/src/work).
 */
export class ImageRefused extends Error {
  readonly reason: string;
  readonly extra: Record<string, unknown>;
  constructor(reason: string, message: string, extra: Record<string, unknown> = {}) {
    super(message);
    this.reason = reason;
    this.extra = extra;
  }
}

export interface ProcessedImage {
  data: Buffer;
  contentType: 'image/jpeg';
  width: number;
  height: number;
}

const reject = (reason: string, message: string, extra: Record<string, unknown> = {}) =>
  new ImageRefused(reason, message, extra);

function checkPixels(width: number | undefined, height: number | undefined, maxMegapixels: number): void {
  if (!width || !height) throw reject('corrupt', 'The image has no readable dimensions.');
  if (width * height > maxMegapixels * 1_000_000) {
    throw reject('too_many_pixels', `The image is larger than ${maxMegapixels} megapixels.`, {
      max_megapixels: maxMegapixels,
      width,
      height,
    });
  }
}

async function decodeHeicToSharp(input: Buffer, limits: ImageLimits): Promise<Sharp> {
  let images: Awaited<ReturnType<typeof decodeHeic.all>>;
  try {
    images = await decodeHeic.all({ buffer: input });
  } catch {
    throw reject('corrupt', 'The HEIC image could not be read.');
  }
  try {
    const first = images[0];
    if (!first) throw reject('corrupt', 'The HEIC file holds no image.');
    // Dimensions come from the container: a bomb is refused before any pixel is decoded.
    checkPixels(first.width, first.height, limits.maxHeicMegapixels);
    let decoded;
    try {
      decoded = await first.decode();
    } catch {
      throw reject('corrupt', 'The HEIC image could not be decoded.');
    }
    return sharp(Buffer.from(decoded.data.buffer, decoded.data.byteOffset, decoded.data.byteLength), {
      raw: { width: decoded.width, height: decoded.height, channels: 4 },
    });
  } finally {
    images.dispose();
  }
}

/**
 * Checks and re-encodes an uploaded avatar, in a worker thread of the write API's pool (never on
 * the event loop: a large HEIC holds its thread for seconds). The kind comes from the bytes (magic numbers): the
 * part's declared Content-Type is a hint only, never a reason to refuse a real JPEG, PNG, WebP or
 * HEIC (curl and Flutter send `application/octet-stream`). Every refusal is 400
 * `validation_error` on `file` with a `reason` (`ImageRefused`): `unsupported_type`, `too_many_pixels`,
 * `corrupt`.
 */
export async function processAvatar(input: Buffer, limits: ImageLimits): Promise<ProcessedImage> {
  const actual = sniffImage(input);
  if (!actual) throw reject('unsupported_type', 'The file is not a JPEG, PNG, HEIC or WebP image.');

  const pixelLimit = limits.maxMegapixels * 1_000_000;
  let pipeline: Sharp;
  if (actual === 'heic') {
    pipeline = await decodeHeicToSharp(input, limits);
  } else {
    let meta: Metadata;
    try {
      // Reads the header only; the pixel limit is ours, checked next with a clear answer.
      meta = await sharp(input, { limitInputPixels: false }).metadata();
    } catch {
      throw reject('corrupt', 'The image could not be read.');
    }
    if (meta.format !== actual && !(actual === 'jpeg' && meta.format === 'jpeg')) {
      throw reject('corrupt', 'The image could not be read.');
    }
    // Header dimensions, before decoding: a small file that would expand to gigabytes stops here.
    checkPixels(meta.width, meta.height, limits.maxMegapixels);
    pipeline = sharp(input, { limitInputPixels: pixelLimit, failOn: 'error', pages: 1 }).rotate();
  }

  try {
    const { data, info } = await pipeline
      .resize(limits.maxSidePx, limits.maxSidePx, { fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: limits.jpegQuality, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    return { data, contentType: 'image/jpeg', width: info.width, height: info.height };
  } catch {
    throw reject('corrupt', 'The image could not be decoded.');
  }
}
