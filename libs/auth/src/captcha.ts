import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type { Redis } from 'ioredis';

/**
 * DESIGN G5d: a slider puzzle; the answer is the piece's x offset in pixels, plus the nonce of a
 * small proof of work.
 *
 * What keeps scripts out (issue 14 point 2): the piece is not a crop of the picture (it has its
 * own fill), so matching its pixels finds nothing; the picture has several gaps of different
 * shapes at different rows, with soft edges, among sharper clutter and pixel noise, so matching
 * the piece's outline against edges finds clutter as often as gaps; and the row of the piece is
 * not handed out. A person compares the outlines: only one gap has the piece's tabs and notches.
 * The proof of work makes each attempt cost CPU, so solving in bulk is not free either.
 */
export const CAPTCHA_WIDTH = 320;
export const CAPTCHA_HEIGHT = 160;
export const PIECE_SIZE = 56;
/** Gaps of other shapes drawn beside the real one. */
const DISTRACTORS = 7;
const BODY = 40;
const MARGIN = (PIECE_SIZE - BODY) / 2;
const TAB_R = 5;

export interface ProofOfWork {
  algorithm: 'sha256';
  /** Hash `prefix` followed by the nonce in decimal digits (UTF-8). */
  prefix: string;
  /** The digest must start with this many zero bits. */
  difficultyBits: number;
}

export interface CaptchaChallenge {
  captchaId: string;
  /** Background with the gaps, as a PNG data URL. */
  background: string;
  /** The piece to slide, a PNG with transparency, as a data URL. */
  piece: string;
  width: number;
  height: number;
  pieceSize: number;
  pow: ProofOfWork;
  expiresIn: number;
}

interface Stored {
  x: number;
  prefix: string;
  bits: number;
}

const key = (id: string) => `captcha:${id}`;

/** One side of the body: no tab (0), a tab out (1) or a notch in (-1), centred at `at` (0..1). */
type Side = { kind: -1 | 0 | 1; at: number };
type Shape = [Side, Side, Side, Side];

function randomShape(): Shape {
  for (;;) {
    const sides = Array.from({ length: 4 }, () => ({
      kind: (randomInt(3) - 1) as -1 | 0 | 1,
      at: 0.35 + randomInt(31) / 100,
    })) as Shape;
    if (sides.filter((s) => s.kind !== 0).length >= 2) return sides;
  }
}

/**
 * Near misses: exactly one side differs (a tab, a notch or a straight edge), which a person
 * sees and an outline matcher barely scores.
 */
function nearMiss(of: Shape): Shape {
  for (;;) {
    const side = randomInt(4);
    const kind = (randomInt(3) - 1) as -1 | 0 | 1;
    if (kind === of[side]!.kind) continue;
    const s = of.map((x) => ({ ...x, at: 0.35 + randomInt(31) / 100 })) as Shape;
    s[side] = { kind, at: s[side]!.at };
    if (s.filter((x) => x.kind !== 0).length >= 2) return s;
  }
}

// Clockwise around the body; on each side a tab is an arc bulging out (sweep 1) or in (sweep 0).
function shapePath(shape: Shape): string {
  const a = MARGIN;
  const b = MARGIN + BODY;
  const half = TAB_R * 0.8;
  const [top, right, bottom, left] = shape;
  const parts = [`M ${a} ${a}`];
  const tab = (side: Side, from: [number, number], to: [number, number]) => {
    if (side.kind === 0) return `L ${to[0]} ${to[1]}`;
    const cx = from[0] + (to[0] - from[0]) * side.at;
    const cy = from[1] + (to[1] - from[1]) * side.at;
    const dx = Math.sign(to[0] - from[0]) * half;
    const dy = Math.sign(to[1] - from[1]) * half;
    const sweep = side.kind === 1 ? 1 : 0;
    return `L ${cx - dx} ${cy - dy} A ${TAB_R} ${TAB_R} 0 1 ${sweep} ${cx + dx} ${cy + dy} L ${to[0]} ${to[1]}`;
  };
  parts.push(tab(top, [a, a], [b, a]));
  parts.push(tab(right, [b, a], [b, b]));
  parts.push(tab(bottom, [b, b], [a, b]));
  parts.push(tab(left, [a, b], [a, a]));
  parts.push('Z');
  return parts.join(' ');
}

function backgroundSvg(): string {
  const hue = randomInt(360);
  const shapes: string[] = [];
  for (let i = 0; i < 34; i++) {
    const h = (hue + randomInt(-90, 90) + 360) % 360;
    const fill = `hsl(${h},${randomInt(40, 85)}%,${randomInt(30, 75)}%)`;
    const op = (randomInt(40, 95) / 100).toFixed(2);
    const x = randomInt(CAPTCHA_WIDTH);
    const y = randomInt(CAPTCHA_HEIGHT);
    const kind = randomInt(3);
    if (kind === 0) {
      shapes.push(
        `<rect x="${x}" y="${y}" width="${randomInt(15, 70)}" height="${randomInt(10, 50)}" fill="${fill}" opacity="${op}" transform="rotate(${randomInt(-40, 40)} ${x} ${y})"/>`,
      );
    } else if (kind === 1) {
      shapes.push(`<circle cx="${x}" cy="${y}" r="${randomInt(6, 30)}" fill="${fill}" opacity="${op}"/>`);
    } else {
      // Decoys with the body's own size, so an outline of that size is everywhere.
      shapes.push(
        `<rect x="${x}" y="${y}" width="${BODY + randomInt(-4, 5)}" height="${BODY + randomInt(-4, 5)}" rx="${randomInt(0, 6)}" fill="${fill}" opacity="${op}"/>`,
      );
    }
  }
  for (let i = 0; i < 10; i++) {
    shapes.push(
      `<line x1="${randomInt(CAPTCHA_WIDTH)}" y1="${randomInt(CAPTCHA_HEIGHT)}" x2="${randomInt(CAPTCHA_WIDTH)}" y2="${randomInt(CAPTCHA_HEIGHT)}" stroke="hsl(${randomInt(360)},60%,${randomInt(25, 80)}%)" stroke-width="${randomInt(1, 4)}" opacity="0.7"/>`,
    );
  }
  const h2 = (hue + [60, 120, 180, 240][randomInt(4)]!) % 360;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${CAPTCHA_WIDTH}" height="${CAPTCHA_HEIGHT}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},55%,70%)"/><stop offset="1" stop-color="hsl(${h2},55%,45%)"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#g)"/>${shapes.join('')}</svg>`;
}

/**
 * Soft-edged dark gaps, each turned and scaled a little about its centre, plus soft dark blobs
 * without tabs: a person sees the outlines; an edge or template matcher finds no exact fit.
 */
function gapsSvg(gaps: Array<{ x: number; y: number; shape: Shape }>): Buffer {
  const c = PIECE_SIZE / 2;
  const paths = gaps
    .map((g) => {
      const turn = randomInt(-14, 15);
      const scale = (randomInt(95, 116) / 100).toFixed(2);
      return `<g transform="translate(${g.x + c} ${g.y + c}) rotate(${turn}) scale(${scale}) translate(${-c} ${-c})"><path d="${shapePath(g.shape)}" fill="rgba(0,0,0,0.5)" stroke="rgba(255,255,255,0.6)" stroke-width="1.5" stroke-dasharray="1.5 4" filter="url(#soft)"/></g>`;
    })
    .join('');
  const blobs = Array.from({ length: 3 }, () => {
    const size = BODY + randomInt(-6, 9);
    const x = randomInt(CAPTCHA_WIDTH - size);
    const y = randomInt(CAPTCHA_HEIGHT - size);
    return `<rect x="${x}" y="${y}" width="${size}" height="${size}" rx="${randomInt(2, 12)}" fill="rgba(0,0,0,0.4)" stroke="rgba(255,255,255,0.6)" stroke-width="1.5" stroke-dasharray="1.5 4" filter="url(#soft)" transform="rotate(${randomInt(-20, 21)} ${x + size / 2} ${y + size / 2})"/>`;
  }).join('');
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CAPTCHA_WIDTH}" height="${CAPTCHA_HEIGHT}"><defs><filter id="soft" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur stdDeviation="1.5"/></filter></defs>${blobs}${paths}</svg>`,
  );
}

// The piece's own picture: a gradient with blobs, unrelated to the background under the gap.
function pieceSvg(shape: Shape): Buffer {
  const hue = randomInt(360);
  const blobs = Array.from(
    { length: 6 },
    () =>
      `<circle cx="${randomInt(PIECE_SIZE)}" cy="${randomInt(PIECE_SIZE)}" r="${randomInt(3, 12)}" fill="hsl(${randomInt(360)},50%,${randomInt(35, 85)}%)" opacity="0.7"/>`,
  ).join('');
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${PIECE_SIZE}" height="${PIECE_SIZE}"><defs>` +
      `<linearGradient id="p" x1="${randomInt(2)}" y1="0" x2="${randomInt(2)}" y2="1"><stop offset="0" stop-color="hsl(${hue},45%,${randomInt(40, 85)}%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360},45%,${randomInt(40, 85)}%)"/></linearGradient>` +
      `<clipPath id="c"><path d="${shapePath(shape)}"/></clipPath></defs>` +
      // Drawn smaller than the gaps: a person matches shapes across sizes, a fixed template does not.
      `<g transform="rotate(${(randomInt(2) ? 1 : -1) * randomInt(5, 13)} ${PIECE_SIZE / 2} ${PIECE_SIZE / 2}) translate(${PIECE_SIZE * 0.1} ${PIECE_SIZE * 0.1}) scale(0.8)"><g clip-path="url(#c)"><rect width="100%" height="100%" fill="url(#p)"/>${blobs}</g></g></svg>`,
  );
}

/** Noise on every pixel, so no two renderings of the same shapes are equal pixel for pixel. */
async function withNoise(image: ReturnType<typeof sharp>, amplitude: number): Promise<Buffer> {
  const { data, info } = await image.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const noise = randomBytes(data.length);
  for (let i = 0; i < data.length; i++) {
    if (i % 4 === 3) continue;
    const v = data[i]! + ((noise[i]! % (2 * amplitude + 1)) - amplitude);
    data[i] = v < 0 ? 0 : v > 255 ? 255 : v;
  }
  return sharp(data, { raw: { width: info.width, height: info.height, channels: 4 } })
    .png()
    .toBuffer();
}

/**
 * The real gap within the answer's range, then the others anywhere, none covering another: a gap
 * partly hidden would stand out from the whole one.
 */
function placeGaps(count: number): Array<{ x: number; y: number }> {
  for (;;) {
    const boxes = [
      {
        x: randomInt(PIECE_SIZE + 16, CAPTCHA_WIDTH - PIECE_SIZE - 4),
        y: randomInt(4, CAPTCHA_HEIGHT - PIECE_SIZE - 4),
      },
    ];
    for (let tries = 0; boxes.length < count && tries < 500; tries++) {
      const c = { x: randomInt(2, CAPTCHA_WIDTH - PIECE_SIZE - 2), y: randomInt(2, CAPTCHA_HEIGHT - PIECE_SIZE - 2) };
      if (boxes.every((b) => Math.abs(b.x - c.x) >= PIECE_SIZE - 8 || Math.abs(b.y - c.y) >= PIECE_SIZE - 8)) {
        boxes.push(c);
      }
    }
    if (boxes.length === count) return boxes;
  }
}

export function powSatisfied(prefix: string, nonce: string, bits: number): boolean {
  if (!/^[0-9]{1,20}$/.test(nonce)) return false;
  const digest = createHash('sha256')
    .update(prefix + nonce)
    .digest();
  let left = bits;
  for (const byte of digest) {
    if (left <= 0) return true;
    if (left >= 8) {
      if (byte !== 0) return false;
      left -= 8;
    } else {
      return byte >> (8 - left) === 0;
    }
  }
  return left <= 0;
}

/** Draws a new puzzle with sharp and remembers its answer in Redis for `ttlS` seconds. */
export async function createCaptcha(redis: Redis, ttlS: number, powBits: number): Promise<CaptchaChallenge> {
  const boxes = placeGaps(1 + DISTRACTORS);
  const shape = randomShape();
  const shapes: Shape[] = [shape];
  while (shapes.length < boxes.length) {
    // Near misses only, so the outline alone hardly tells the real gap.
    shapes.push(nearMiss(shape));
  }
  // The real gap has the piece's tabs and notches, but each somewhere else along its side: a
  // person compares which side has what, a template finds no exact fit there either.
  shapes[0] = shape.map((side) => ({ kind: side.kind, at: 0.35 + randomInt(31) / 100 })) as Shape;
  const gaps = boxes.map((b, i) => ({ ...b, shape: shapes[i]! }));
  const base = await sharp(Buffer.from(backgroundSvg())).png().toBuffer();
  const background = await withNoise(sharp(base).composite([{ input: gapsSvg(gaps) }]), 14);
  const piece = await withNoise(sharp(pieceSvg(shape)), 10);

  const captchaId = randomUUID();
  const stored: Stored = { x: boxes[0]!.x, prefix: randomBytes(16).toString('hex'), bits: powBits };
  await redis.set(key(captchaId), JSON.stringify(stored), 'EX', ttlS);
  return {
    captchaId,
    background: dataUrl(background),
    piece: dataUrl(piece),
    width: CAPTCHA_WIDTH,
    height: CAPTCHA_HEIGHT,
    pieceSize: PIECE_SIZE,
    pow: { algorithm: 'sha256', prefix: stored.prefix, difficultyBits: powBits },
    expiresIn: ttlS,
  };
}

const dataUrl = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;

/** A strict integer: a JSON integer, or a string of decimal digits and nothing else. */
export function parseOffset(answer: string | number): number | null {
  if (typeof answer === 'number') return Number.isSafeInteger(answer) && answer >= 0 ? answer : null;
  return /^[0-9]{1,5}$/.test(answer) ? Number(answer) : null;
}

/**
 * Checks an answer and uses the challenge up whatever the outcome (GETDEL), so a challenge can
 * be tried once only. Both the offset (within `tolerancePx`) and the proof of work must hold.
 */
export async function verifyCaptcha(
  redis: Redis,
  captchaId: string,
  answer: string | number,
  nonce: string,
  tolerancePx: number,
): Promise<boolean> {
  if (!/^[0-9a-f-]{36}$/i.test(captchaId)) return false;
  const raw = await redis.getdel(key(captchaId));
  if (raw === null) return false;
  let stored: Stored;
  try {
    stored = JSON.parse(raw) as Stored;
  } catch {
    return false;
  }
  const given = parseOffset(answer);
  if (given === null || !powSatisfied(stored.prefix, nonce, stored.bits)) return false;
  return Math.abs(given - stored.x) <= tolerancePx;
}
