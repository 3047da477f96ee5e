import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type { Redis } from 'ioredis';
import { createChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';

/**
 * DESIGN G5d: a slider puzzle; the answer is the piece's x offset in pixels (the left edge of its
 * box when it sits centred on its shadow), plus the counter of a proof of work.
 *
 * The drawing (issue 14 point 2): the piece is a silhouette (a heart, a star, ...) with its own
 * fill, turned 20-35 degrees and drawn smaller than its shadow; the picture holds that shadow,
 * soft-edged, among shadows of other silhouettes and under sharper clutter and pixel noise. A
 * person names the shape and finds the one shadow with that name; the row is not handed out.
 *
 * The drawing is not the defence (issue 32 point 2, DESIGN section 7 "Captcha (G5d), revised"):
 * a script that reads the piece's outline from its alpha channel and looks for colour-neutral
 * edges in log space solves most puzzles. The defence is the price of each answer: a proof of
 * work (ALTCHA's PoW v2, `altcha-lib`: PBKDF2-HMAC-SHA-256 of a counter, `cost` iterations each,
 * until the derived key starts with the challenge's prefix), whose counter is drawn at random
 * below a maximum that doubles with each level of suspicion (`CaptchaPow.maxCounter`). PBKDF2 runs
 * native in a browser (WebCrypto) as in a script, so a script gets no large head start on a
 * person, and a person's phone spreads the counters over its cores. The challenge is bound to
 * the address, the session and the email it was fetched for, used once, and short-lived.
 */
export const CAPTCHA_WIDTH = 320;
export const CAPTCHA_HEIGHT = 160;
export const PIECE_SIZE = 56;
/** Shadows of other shapes drawn beside the real one. */
const DECOYS = 4;
/** The shapes are drawn in a 40 x 40 box; a shadow spans about that, the piece less. */
const UNIT = 40;

/**
 * Silhouettes a person names at a glance (a heart is a heart turned 30 degrees), far apart from
 * each other, each filling most of the 40 x 40 box.
 */
const SHAPES: Record<string, string> = {
  heart: 'M20 37 C 6 27 0 17 6 9 C 11 3 18 5 20 11 C 22 5 29 3 34 9 C 40 17 34 27 20 37 Z',
  star: polygon(Array.from({ length: 10 }, (_, i) => polar(i % 2 ? 8 : 19.5, -90 + i * 36))),
  triangle: polygon([polar(20, -90), polar(20, 30), polar(20, 150)]),
  cross: 'M14 2 H26 V14 H38 V26 H26 V38 H14 V26 H2 V14 H14 Z',
  hourglass: 'M4 4 H36 L22 20 L36 36 H4 L18 20 Z',
  arrow: 'M2 14 H20 V4 L38 20 L20 36 V26 H2 Z',
  bolt: 'M23 1 L6 23 H18 L14 39 L34 14 H22 Z',
};
const FAMILIES = Object.keys(SHAPES);

function polar(r: number, deg: number): [number, number] {
  const a = (deg * Math.PI) / 180;
  return [20 + r * Math.cos(a), 20 + r * Math.sin(a)];
}
function polygon(points: Array<[number, number]>): string {
  return `M${points.map(([x, y]) => `${x.toFixed(2)} ${y.toFixed(2)}`).join(' L')} Z`;
}

/** The proof of work of a challenge, as ALTCHA's PoW v2 names its parameters. */
export interface ProofOfWork {
  algorithm: 'PBKDF2/SHA-256';
  /** Hex: the PBKDF2 password is these bytes followed by the counter as a big-endian uint32. */
  nonce: string;
  /** Hex: the PBKDF2 salt. */
  salt: string;
  /** PBKDF2 iterations for each counter tried. */
  cost: number;
  /** Bytes of the derived key. */
  keyLength: number;
  /** Hex: the derived key of the right counter starts with it. */
  keyPrefix: string;
  /** The counter is below this (drawn at random): half of it is the expected work. */
  maxCounter: number;
  /** 1 when a captcha is first demanded; each level above doubles `maxCounter`. */
  level: number;
}

/** How much work a challenge asks for (`CAPTCHA_POW_*`). */
export interface CaptchaPow {
  cost: number;
  /** `maxCounter` at level 1. */
  counters: number;
  level: number;
}

/** Who fetched a challenge: it answers only for the same address, session and email. */
export interface CaptchaBinding {
  /** The address as per-address limits count it (an IPv6 /64). */
  address: string;
  /** The session of a signed-in fetcher; null otherwise. */
  sessionId: string | null;
  /** Digest of the email it was fetched for; null when none was named. */
  emailKey: string | null;
}

export interface CaptchaChallenge {
  captchaId: string;
  /** Background with the shadows, as a PNG data URL. */
  background: string;
  /** The piece to slide, a PNG with transparency, as a data URL. */
  piece: string;
  width: number;
  height: number;
  pieceSize: number;
  pow: ProofOfWork;
  expiresIn: number;
}

interface Stored extends CaptchaBinding {
  x: number;
  /** Kept for pictures of the solution in tests; never handed out. */
  y: number;
  /** The counter that solves the proof of work. */
  counter: number;
  level: number;
}

const key = (id: string) => `captcha:${id}`;

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
      // Sharp outlines of the shadows' size everywhere, for an outline matcher to land on.
      shapes.push(
        `<rect x="${x}" y="${y}" width="${UNIT + randomInt(-8, 5)}" height="${UNIT + randomInt(-8, 5)}" rx="${randomInt(0, 8)}" fill="${fill}" opacity="${op}" transform="rotate(${randomInt(-30, 30)} ${x} ${y})"/>`,
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

interface Shadow {
  /** Centre in the picture. */
  cx: number;
  cy: number;
  family: string;
  turn: number;
  scale: number;
}

/** Soft dark shadows: a person sees the silhouettes; their blurred edges are weaker than clutter's. */
function shadowsSvg(shadows: Shadow[]): Buffer {
  const c = UNIT / 2;
  const paths = shadows
    .map(
      (s) =>
        `<g transform="translate(${s.cx} ${s.cy}) rotate(${s.turn}) scale(${s.scale.toFixed(2)}) translate(${-c} ${-c})"><path d="${SHAPES[s.family]}" fill="rgba(0,0,0,0.55)" filter="url(#soft)"/></g>`,
    )
    .join('');
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${CAPTCHA_WIDTH}" height="${CAPTCHA_HEIGHT}"><defs><filter id="soft" x="-30%" y="-30%" width="160%" height="160%"><feGaussianBlur stdDeviation="2.5"/></filter></defs>${paths}</svg>`,
  );
}

// The piece's own picture: a gradient with blobs, unrelated to the picture under its shadow.
function pieceSvg(family: string, turn: number, scale: number): Buffer {
  const hue = randomInt(360);
  const blobs = Array.from(
    { length: 6 },
    () =>
      `<circle cx="${randomInt(UNIT)}" cy="${randomInt(UNIT)}" r="${randomInt(3, 10)}" fill="hsl(${randomInt(360)},50%,${randomInt(35, 85)}%)" opacity="0.7"/>`,
  ).join('');
  const c = UNIT / 2;
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${PIECE_SIZE}" height="${PIECE_SIZE}"><defs>` +
      `<linearGradient id="p" x1="${randomInt(2)}" y1="0" x2="${randomInt(2)}" y2="1"><stop offset="0" stop-color="hsl(${hue},45%,${randomInt(40, 85)}%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360},45%,${randomInt(40, 85)}%)"/></linearGradient>` +
      `<clipPath id="c"><path d="${SHAPES[family]}"/></clipPath></defs>` +
      `<g transform="translate(${PIECE_SIZE / 2} ${PIECE_SIZE / 2}) rotate(${turn}) scale(${scale.toFixed(2)}) translate(${-c} ${-c})">` +
      `<g clip-path="url(#c)"><rect width="${UNIT}" height="${UNIT}" fill="url(#p)"/>${blobs}</g>` +
      // A dark rim, so the piece stands out wherever it is dragged (a light one would give a
      // template matcher the shadow's own light-outside, dark-inside pattern).
      `<path d="${SHAPES[family]}" fill="none" stroke="black" stroke-opacity="0.7" stroke-width="${(1.6 / scale).toFixed(2)}"/></g></svg>`,
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
 * The real shadow first, its box within the answer's range (never at the slider's start), then
 * the decoys anywhere, none touching another: a shadow partly hidden would stand out.
 */
function placeShadows(count: number): Array<{ cx: number; cy: number }> {
  const half = PIECE_SIZE / 2;
  for (;;) {
    const centres = [
      { cx: randomInt(40, CAPTCHA_WIDTH - PIECE_SIZE - 7) + half, cy: randomInt(26, CAPTCHA_HEIGHT - 25) },
    ];
    for (let tries = 0; centres.length < count && tries < 500; tries++) {
      const c = { cx: randomInt(26, CAPTCHA_WIDTH - 25), cy: randomInt(26, CAPTCHA_HEIGHT - 25) };
      if (centres.every((o) => Math.hypot(o.cx - c.cx, o.cy - c.cy) >= UNIT + 10)) centres.push(c);
    }
    if (centres.length === count) return centres;
  }
}

const pick = <T>(items: readonly T[]): T => items[randomInt(items.length)]!;

/**
 * Draws a new puzzle with sharp, makes its proof of work, and remembers the answer and who
 * fetched it in Redis for `ttlS` seconds.
 */
export async function createCaptcha(
  redis: Redis,
  ttlS: number,
  pow: CaptchaPow,
  binding: CaptchaBinding,
): Promise<CaptchaChallenge> {
  const centres = placeShadows(1 + DECOYS);
  const families = [...FAMILIES];
  const shadows: Shadow[] = centres.map((c) => {
    // Each decoy a different silhouette from the piece's and from the other decoys'.
    const family = families.splice(randomInt(families.length), 1)[0]!;
    return { ...c, family, turn: randomInt(-30, 31), scale: randomInt(102, 115) / 100 };
  });
  const real = shadows[0]!;
  // Turned away from its shadow and smaller: a person still sees a heart, its outline no longer
  // lies on the shadow's edge.
  const pieceTurn = real.turn + pick([-1, 1]) * randomInt(20, 36);
  const pieceScale = randomInt(72, 80) / 100;
  const base = await sharp(Buffer.from(backgroundSvg())).png().toBuffer();
  const background = await withNoise(sharp(base).composite([{ input: shadowsSvg(shadows) }]), 14);
  const piece = await withNoise(sharp(pieceSvg(real.family, pieceTurn, pieceScale)), 10);

  // The counter drawn below the level's maximum; the key prefix of that counter is the puzzle
  // (altcha-lib's deterministic mode: one PBKDF2 here, `counter + 1` of them for the solver).
  const maxCounter = pow.counters * 2 ** (pow.level - 1);
  const counter = randomInt(maxCounter);
  const { parameters } = await createChallenge({
    algorithm: 'PBKDF2/SHA-256',
    cost: pow.cost,
    counter,
    deriveKey,
    keyLength: 32,
    keyPrefixLength: 16,
  });

  const captchaId = randomUUID();
  const stored: Stored = {
    x: real.cx - PIECE_SIZE / 2,
    y: real.cy - PIECE_SIZE / 2,
    counter,
    level: pow.level,
    ...binding,
  };
  await redis.set(key(captchaId), JSON.stringify(stored), 'EX', ttlS);
  return {
    captchaId,
    background: dataUrl(background),
    piece: dataUrl(piece),
    width: CAPTCHA_WIDTH,
    height: CAPTCHA_HEIGHT,
    pieceSize: PIECE_SIZE,
    pow: {
      algorithm: 'PBKDF2/SHA-256',
      nonce: parameters.nonce,
      salt: parameters.salt,
      cost: parameters.cost,
      keyLength: parameters.keyLength ?? 32,
      keyPrefix: parameters.keyPrefix,
      maxCounter,
      level: pow.level,
    },
    expiresIn: ttlS,
  };
}

const dataUrl = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;

/** A strict integer: a JSON integer, or a string of decimal digits and nothing else. */
export function parseOffset(answer: string | number): number | null {
  if (typeof answer === 'number') return Number.isSafeInteger(answer) && answer >= 0 ? answer : null;
  return /^[0-9]{1,5}$/.test(answer) ? Number(answer) : null;
}

export type CaptchaVerdict =
  /** The offset is within the tolerance and the counter solves the proof of work. */
  | 'ok'
  /** Unknown, expired or used challenge, a wrong offset or a wrong counter. */
  | 'wrong_answer'
  /** Fetched by another address, session or for another email. */
  | 'other_client'
  /** Fetched at a level below the one demanded now (failures since it was fetched). */
  | 'too_easy';

/**
 * Checks an answer and uses the challenge up whatever the outcome (GETDEL), so a challenge can
 * be tried once only. It must come from the same address and session, for the same email (or
 * for none), at a level at least `requiredLevel`; the offset must be within `tolerancePx` and
 * the counter the one that solves its proof of work.
 */
export async function verifyCaptcha(
  redis: Redis,
  captchaId: string,
  answer: string | number,
  counter: string,
  tolerancePx: number,
  binding: CaptchaBinding,
  requiredLevel: number,
): Promise<CaptchaVerdict> {
  if (!/^[0-9a-f-]{36}$/i.test(captchaId)) return 'wrong_answer';
  const raw = await redis.getdel(key(captchaId));
  if (raw === null) return 'wrong_answer';
  let stored: Stored;
  try {
    stored = JSON.parse(raw) as Stored;
  } catch {
    return 'wrong_answer';
  }
  if (
    stored.address !== binding.address ||
    stored.sessionId !== binding.sessionId ||
    (stored.emailKey !== null && stored.emailKey !== binding.emailKey)
  ) {
    return 'other_client';
  }
  if (stored.level < requiredLevel) return 'too_easy';
  const given = parseOffset(answer);
  if (given === null || !/^[0-9]{1,10}$/.test(counter) || Number(counter) !== stored.counter) return 'wrong_answer';
  return Math.abs(given - stored.x) <= tolerancePx ? 'ok' : 'wrong_answer';
}
