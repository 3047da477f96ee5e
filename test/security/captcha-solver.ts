import { pbkdf2Sync } from 'node:crypto';
import sharp from 'sharp';

/**
 * A scripted solver of the slider captcha, written in the spirit of the one issue 32 measured
 * (98.2 % of 220 accepted): pure Node, sharp to decode, no OpenCV. It knows how the puzzle is
 * drawn, as a determined attacker learns it from a few hundred samples:
 *
 * - the piece's alpha channel gives the silhouette, its outline and outward normals;
 * - the real shadow darkens all three colour channels by one factor, so in log space its edges
 *   move the three channels alike (colour-neutral), while the coloured clutter's do not; and the
 *   shadow is darker inside, so its log gradient points outward across the outline;
 * - the shadow is the piece turned 20-35 degrees either way and drawn 1.3-1.6 times larger;
 *   decoys are other silhouettes, which fit the piece's outline less well.
 *
 * Every rotation and scale of the outline is laid over the neutral-edge map at every position
 * (coarse, then refined around the best); the best fit is the answer. `solvePow` does the proof
 * of work the way a script does it, natively, counter after counter.
 */

export interface Rgba {
  width: number;
  height: number;
  data: Buffer;
}

export async function decode(dataUrl: string): Promise<Rgba> {
  const { data, info } = await sharp(Buffer.from(dataUrl.split(',')[1]!, 'base64'))
    .ensureAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, data };
}

/**
 * Per pixel, the part of the log-space gradient that all three channels share, weighted by how
 * colour-neutral it is: a shadow's edge keeps nearly all of it, a coloured shape's edge little.
 */
function neutralGradient(img: Rgba): { gx: Float32Array; gy: Float32Array } {
  const { width: w, height: h, data } = img;
  const n = w * h;
  // log(1 + v) per channel after a 3x3 box blur (takes out most of the pixel noise).
  const logs = [new Float32Array(n), new Float32Array(n), new Float32Array(n)];
  for (let c = 0; c < 3; c++) {
    const out = logs[c]!;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        let sum = 0;
        let count = 0;
        for (let dy = -1; dy <= 1; dy++) {
          const yy = y + dy;
          if (yy < 0 || yy >= h) continue;
          for (let dx = -1; dx <= 1; dx++) {
            const xx = x + dx;
            if (xx < 0 || xx >= w) continue;
            sum += data[(yy * w + xx) * 4 + c]!;
            count++;
          }
        }
        out[y * w + x] = Math.log1p(sum / count);
      }
    }
  }
  const gx = new Float32Array(n);
  const gy = new Float32Array(n);
  const cx = [0, 0, 0];
  const cy = [0, 0, 0];
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      for (let c = 0; c < 3; c++) {
        const l = logs[c]!;
        cx[c] = l[i - w + 1]! + 2 * l[i + 1]! + l[i + w + 1]! - l[i - w - 1]! - 2 * l[i - 1]! - l[i + w - 1]!;
        cy[c] = l[i + w - 1]! + 2 * l[i + w]! + l[i + w + 1]! - l[i - w - 1]! - 2 * l[i - w]! - l[i - w + 1]!;
      }
      const mx = (cx[0]! + cx[1]! + cx[2]!) / 3;
      const my = (cy[0]! + cy[1]! + cy[2]!) / 3;
      let spread = 0;
      for (let c = 0; c < 3; c++) spread += (cx[c]! - mx) ** 2 + (cy[c]! - my) ** 2;
      const strength = mx * mx + my * my;
      const neutral = strength / (strength + 2 * spread + 1e-4);
      gx[i] = mx * neutral;
      gy[i] = my * neutral;
    }
  }
  return { gx, gy };
}

interface OutlinePoint {
  x: number;
  y: number;
  /** Outward normal. */
  nx: number;
  ny: number;
}

/** Boundary pixels of the piece's silhouette (from its alpha), relative to the box centre. */
function outline(piece: Rgba): OutlinePoint[] {
  const { width: w, height: h, data } = piece;
  const a = (x: number, y: number) => (x < 0 || y < 0 || x >= w || y >= h ? 0 : data[(y * w + x) * 4 + 3]!);
  const points: OutlinePoint[] = [];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (a(x, y) < 128) continue;
      if (a(x - 1, y) >= 128 && a(x + 1, y) >= 128 && a(x, y - 1) >= 128 && a(x, y + 1) >= 128) continue;
      // Outward: from opaque to transparent, against the alpha gradient.
      const nx = -(a(x + 1, y) - a(x - 1, y));
      const ny = -(a(x, y + 1) - a(x, y - 1));
      const len = Math.hypot(nx, ny);
      if (len === 0) continue;
      points.push({ x: x - w / 2 + 0.5, y: y - h / 2 + 0.5, nx: nx / len, ny: ny / len });
    }
  }
  // About 80 points are enough and keep the search fast.
  const step = Math.max(1, Math.floor(points.length / 80));
  return points.filter((_, i) => i % step === 0);
}

interface Template {
  dx: Int16Array;
  dy: Int16Array;
  nx: Float32Array;
  ny: Float32Array;
}

function transform(points: OutlinePoint[], turnDeg: number, scale: number): Template {
  const t = (turnDeg * Math.PI) / 180;
  const cos = Math.cos(t);
  const sin = Math.sin(t);
  const n = points.length;
  const out: Template = {
    dx: new Int16Array(n),
    dy: new Int16Array(n),
    nx: new Float32Array(n),
    ny: new Float32Array(n),
  };
  points.forEach((p, i) => {
    out.dx[i] = Math.round(scale * (cos * p.x - sin * p.y));
    out.dy[i] = Math.round(scale * (sin * p.x + cos * p.y));
    out.nx[i] = cos * p.nx - sin * p.ny;
    out.ny[i] = sin * p.nx + cos * p.ny;
  });
  return out;
}

const TURNS = [-36, -32, -28, -24, -20, 20, 24, 28, 32, 36];
const SCALES = [1.3, 1.42, 1.55];

/** The answer the solver gives: the x offset of the piece's box. */
export function solveImage(bg: Rgba, piece: Rgba): number {
  const { gx, gy } = neutralGradient(bg);
  const { width: w, height: h } = bg;
  const points = outline(piece);
  const templates = TURNS.flatMap((turn) => SCALES.map((scale) => transform(points, turn, scale)));
  const score = (tpl: Template, cx: number, cy: number): number => {
    let sum = 0;
    for (let k = 0; k < tpl.dx.length; k++) {
      const x = cx + tpl.dx[k]!;
      const y = cy + tpl.dy[k]!;
      if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1) continue;
      const i = y * w + x;
      const dot = gx[i]! * tpl.nx[k]! + gy[i]! * tpl.ny[k]!;
      if (dot > 0) sum += dot;
    }
    return sum / tpl.dx.length;
  };
  let best = { s: -Infinity, cx: 0, cy: 0, tpl: templates[0]! };
  const half = piece.width / 2;
  // Learnt from samples: the answer is never near the slider's start nor its end.
  const [minX, maxX] = [36, w - piece.width - 3];
  for (const tpl of templates) {
    for (let cy = 12; cy < h - 12; cy += 2) {
      for (let cx = minX + half; cx <= maxX + half; cx += 2) {
        const s = score(tpl, cx, cy);
        if (s > best.s) best = { s, cx, cy, tpl };
      }
    }
  }
  // Refined around the best: every pixel, every template.
  const coarse = best;
  for (const tpl of templates) {
    for (let cy = coarse.cy - 2; cy <= coarse.cy + 2; cy++) {
      for (let cx = coarse.cx - 2; cx <= coarse.cx + 2; cx++) {
        const s = score(tpl, cx, cy);
        if (s > best.s) best = { s, cx, cy, tpl };
      }
    }
  }
  return Math.round(best.cx - half);
}

export interface PowChallenge {
  nonce: string;
  salt: string;
  cost: number;
  key_length: number;
  key_prefix: string;
}

/** The proof of work as a script does it: native PBKDF2, counters 0, 1, 2, ... Returns the counter. */
export function solvePow(pow: PowChallenge): { counter: number; tried: number } {
  const nonce = Buffer.from(pow.nonce, 'hex');
  const salt = Buffer.from(pow.salt, 'hex');
  const prefix = Buffer.from(pow.key_prefix, 'hex');
  const password = Buffer.alloc(nonce.length + 4);
  nonce.copy(password);
  for (let counter = 0; counter <= 0xffffffff; counter++) {
    password.writeUInt32BE(counter, nonce.length);
    const key = pbkdf2Sync(password, salt, pow.cost, pow.key_length, 'sha256');
    if (key.subarray(0, prefix.length).equals(prefix)) return { counter, tried: counter + 1 };
  }
  throw new Error('no counter solves this proof of work');
}

/** CPU seconds of this thread (the attacker's own work, not the server's threads). */
export function threadCpuSeconds(): number {
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1e6;
}
