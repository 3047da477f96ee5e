import { randomInt, randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type { Redis } from 'ioredis';

/** DESIGN G5d: a slider puzzle; the answer is the piece's x offset in pixels. */
export const CAPTCHA_WIDTH = 320;
export const CAPTCHA_HEIGHT = 160;
export const PIECE_SIZE = 56;

export interface CaptchaChallenge {
  captchaId: string;
  /** Background with the gap, as a PNG data URL. */
  background: string;
  /** The piece to slide, a PNG with transparency, as a data URL. */
  piece: string;
  /** Row where the piece lies; only its x offset is asked. */
  pieceY: number;
  width: number;
  height: number;
  pieceSize: number;
  expiresIn: number;
}

const key = (id: string) => `captcha:${id}`;

function pick<T>(list: readonly T[]): T {
  return list[randomInt(list.length)]!;
}

// A square with one round knob on the right and one on top, inside a PIECE_SIZE box.
function piecePath(): string {
  const s = 42; // body
  const o = PIECE_SIZE - s - 2; // room for the knobs
  const r = 7;
  const x0 = 1;
  const y0 = o;
  return [
    `M ${x0} ${y0}`,
    `H ${x0 + s / 2 - r}`,
    `A ${r} ${r} 0 1 1 ${x0 + s / 2 + r} ${y0}`,
    `H ${x0 + s}`,
    `V ${y0 + s / 2 - r}`,
    `A ${r} ${r} 0 1 1 ${x0 + s} ${y0 + s / 2 + r}`,
    `V ${y0 + s}`,
    `H ${x0}`,
    'Z',
  ].join(' ');
}

function backgroundSvg(): string {
  const hue = randomInt(360);
  const shapes: string[] = [];
  for (let i = 0; i < 28; i++) {
    const h = (hue + randomInt(-90, 90) + 360) % 360;
    const fill = `hsl(${h},${randomInt(40, 85)}%,${randomInt(30, 75)}%)`;
    const op = (randomInt(35, 90) / 100).toFixed(2);
    const x = randomInt(CAPTCHA_WIDTH);
    const y = randomInt(CAPTCHA_HEIGHT);
    if (randomInt(3) === 0) {
      shapes.push(
        `<rect x="${x}" y="${y}" width="${randomInt(15, 90)}" height="${randomInt(10, 60)}" fill="${fill}" opacity="${op}" transform="rotate(${randomInt(-40, 40)} ${x} ${y})"/>`,
      );
    } else {
      shapes.push(`<circle cx="${x}" cy="${y}" r="${randomInt(6, 42)}" fill="${fill}" opacity="${op}"/>`);
    }
  }
  for (let i = 0; i < 6; i++) {
    shapes.push(
      `<line x1="${randomInt(CAPTCHA_WIDTH)}" y1="${randomInt(CAPTCHA_HEIGHT)}" x2="${randomInt(CAPTCHA_WIDTH)}" y2="${randomInt(CAPTCHA_HEIGHT)}" stroke="hsl(${randomInt(360)},60%,40%)" stroke-width="${randomInt(1, 4)}" opacity="0.6"/>`,
    );
  }
  const h2 = (hue + pick([60, 120, 180, 240])) % 360;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${CAPTCHA_WIDTH}" height="${CAPTCHA_HEIGHT}">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},55%,70%)"/><stop offset="1" stop-color="hsl(${h2},55%,45%)"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#g)"/>${shapes.join('')}</svg>`;
}

const shapeSvg = (attrs: string) =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${PIECE_SIZE}" height="${PIECE_SIZE}"><path d="${piecePath()}" ${attrs}/></svg>`,
  );

const dataUrl = (png: Buffer) => `data:image/png;base64,${png.toString('base64')}`;

/** Draws a new puzzle with sharp and remembers its answer in Redis for `ttlS` seconds. */
export async function createCaptcha(redis: Redis, ttlS: number): Promise<CaptchaChallenge> {
  const x = randomInt(PIECE_SIZE + 16, CAPTCHA_WIDTH - PIECE_SIZE - 8);
  const y = randomInt(8, CAPTCHA_HEIGHT - PIECE_SIZE - 8);
  const base = await sharp(Buffer.from(backgroundSvg())).png().toBuffer();

  const piece = await sharp(
    await sharp(base)
      .extract({ left: x, top: y, width: PIECE_SIZE, height: PIECE_SIZE })
      .ensureAlpha()
      .png()
      .toBuffer(),
  )
    .composite([
      { input: shapeSvg('fill="#fff"'), blend: 'dest-in' },
      { input: shapeSvg('fill="none" stroke="rgba(255,255,255,0.9)" stroke-width="2"') },
    ])
    .png()
    .toBuffer();
  const background = await sharp(base)
    .composite([
      {
        input: shapeSvg('fill="rgba(0,0,0,0.5)" stroke="rgba(255,255,255,0.8)" stroke-width="2"'),
        left: x,
        top: y,
      },
    ])
    .png()
    .toBuffer();

  const captchaId = randomUUID();
  await redis.set(key(captchaId), String(x), 'EX', ttlS);
  return {
    captchaId,
    background: dataUrl(background),
    piece: dataUrl(piece),
    pieceY: y,
    width: CAPTCHA_WIDTH,
    height: CAPTCHA_HEIGHT,
    pieceSize: PIECE_SIZE,
    expiresIn: ttlS,
  };
}

/**
 * Checks an answer and uses the challenge up whatever the outcome (GETDEL), so a challenge can
 * be tried once only.
 */
export async function verifyCaptcha(
  redis: Redis,
  captchaId: string,
  answer: string,
  tolerancePx: number,
): Promise<boolean> {
  if (!/^[0-9a-f-]{36}$/i.test(captchaId)) return false;
  const stored = await redis.getdel(key(captchaId));
  if (stored === null) return false;
  const given = Number(answer.trim());
  if (!answer.trim() || !Number.isFinite(given)) return false;
  return Math.abs(given - Number(stored)) <= tolerancePx;
}
