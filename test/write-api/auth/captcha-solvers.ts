import sharp from 'sharp';

/**
 * Two scripted attacks on the slider puzzle, kept in the suite so that the puzzle stays out of
 * their reach (issue 14 point 2). Both search every row, since the row is not handed out.
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
 * Naive crop matching (what solved the old puzzle 20 times in 20, whose gap was the piece's own
 * pixels at half brightness): zero-mean normalized cross-correlation of the piece's opaque
 * pixels, in grey, with every window of the background, so a darker copy matches as well.
 */
export function cropMatch(bg: Rgba, piece: Rgba): number {
  const pg = gray(piece);
  const g = gray(bg);
  const pts: Array<[number, number, number]> = [];
  for (let y = 0; y < piece.height; y += 2) {
    for (let x = 0; x < piece.width; x += 2) {
      if (piece.data[(y * piece.width + x) * 4 + 3]! > 200) pts.push([x, y, pg[y * piece.width + x]!]);
    }
  }
  const mean = pts.reduce((a, p) => a + p[2], 0) / pts.length;
  const tpl = pts.map(([x, y, v]) => [x, y, v - mean] as const);
  const tplNorm = Math.sqrt(tpl.reduce((a, p) => a + p[2] * p[2], 0)) || 1;
  let best = -Infinity;
  let bestX = 0;
  for (let oy = 0; oy + piece.height <= bg.height; oy++) {
    for (let ox = 0; ox + piece.width <= bg.width; ox++) {
      let sum = 0;
      let sum2 = 0;
      let cross = 0;
      for (const [x, y, t] of tpl) {
        const v = g[(oy + y) * bg.width + ox + x]!;
        sum += v;
        sum2 += v * v;
        cross += v * t;
      }
      const variance = sum2 - (sum * sum) / tpl.length;
      const ncc = cross / (Math.sqrt(Math.max(variance, 1e-6)) * tplNorm);
      if (ncc > best) {
        best = ncc;
        bestX = ox;
      }
    }
  }
  return bestX;
}

function gray(img: Rgba): Float32Array {
  const out = new Float32Array(img.width * img.height);
  for (let i = 0; i < out.length; i++) {
    out[i] = 0.299 * img.data[i * 4]! + 0.587 * img.data[i * 4 + 1]! + 0.114 * img.data[i * 4 + 2]!;
  }
  return out;
}

/** Sobel magnitude after a 3x3 box blur (which takes out most pixel noise). */
function edges(img: Rgba): Float32Array {
  const { width: w, height: h } = img;
  const g = gray(img);
  const s = new Float32Array(w * h);
  const clamp = (v: number, max: number) => (v < 0 ? 0 : v > max ? max : v);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let sum = 0;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) sum += g[clamp(y + dy, h - 1) * w + clamp(x + dx, w - 1)]!;
      }
      s[y * w + x] = sum / 9;
    }
  }
  const e = new Float32Array(w * h);
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const at = (dx: number, dy: number) => s[(y + dy) * w + x + dx]!;
      const gx = at(1, -1) + 2 * at(1, 0) + at(1, 1) - at(-1, -1) - 2 * at(-1, 0) - at(-1, 1);
      const gy = at(-1, 1) + 2 * at(0, 1) + at(1, 1) - at(-1, -1) - 2 * at(0, -1) - at(1, -1);
      e[y * w + x] = Math.hypot(gx, gy);
    }
  }
  return e;
}

/**
 * Edge matching: the outline of the piece (from its alpha) laid over the background's edge map
 * at every position; the strongest mean edge along the outline, against the mean just inside
 * it, wins.
 */
export function edgeMatch(bg: Rgba, piece: Rgba): number {
  const { width: pw, height: ph } = piece;
  const opaque = (x: number, y: number) =>
    x >= 0 && y >= 0 && x < pw && y < ph && piece.data[(y * pw + x) * 4 + 3]! > 128;
  const outline: Array<[number, number]> = [];
  const inside: Array<[number, number]> = [];
  for (let y = 0; y < ph; y++) {
    for (let x = 0; x < pw; x++) {
      if (!opaque(x, y)) continue;
      const border = !opaque(x - 1, y) || !opaque(x + 1, y) || !opaque(x, y - 1) || !opaque(x, y + 1);
      if (border) outline.push([x, y]);
      else if (!opaque(x - 4, y) || !opaque(x + 4, y) || !opaque(x, y - 4) || !opaque(x, y + 4)) inside.push([x, y]);
    }
  }
  const e = edges(bg);
  let best = -Infinity;
  let bestX = 0;
  for (let oy = 0; oy + ph <= bg.height; oy++) {
    for (let ox = 0; ox + pw <= bg.width; ox++) {
      let on = 0;
      for (const [x, y] of outline) on += e[(oy + y) * bg.width + ox + x]!;
      let within = 0;
      for (const [x, y] of inside) within += e[(oy + y) * bg.width + ox + x]!;
      const score = on / outline.length - 0.5 * (within / Math.max(1, inside.length));
      if (score > best) {
        best = score;
        bestX = ox;
      }
    }
  }
  return bestX;
}
