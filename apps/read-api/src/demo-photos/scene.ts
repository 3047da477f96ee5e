import { PHOTO_SIZES, type DemoPhoto } from '@guest/catalog';

/**
 * The demo catalog's pictures, drawn as SVG from nothing but the photo's name: the listing's kind
 * (its colour and its scene: a house by the sea, mountains, spa stones, a car on a road, a meal),
 * the listing's number (written with seven-segment digits, so no font is needed and every machine
 * draws the same picture) and which photo it is (sun, shades and layout move with it).
 */

/** The colour of each kind, as the web client marks kinds. */
export const KIND_COLOURS = {
  stay: '#0b5cad',
  experience: '#c4570f',
  service: '#7d3c98',
  transport: '#1f7a70',
  food: '#b0102b',
} as const;

/** mulberry32 seeded by the listing and the photo: the same name always makes the same picture. */
function rngOf(listing: number, index: number) {
  let a = (Math.imul(listing, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `#rrggbb` mixed with white (amount > 0) or black (amount < 0). */
function shade(hex: string, amount: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  const target = amount >= 0 ? 255 : 0;
  const f = Math.abs(amount);
  const ch = (shift: number) => {
    const c = (n >> shift) & 255;
    return Math.round(c + (target - c) * f)
      .toString(16)
      .padStart(2, '0');
  };
  return `#${ch(16)}${ch(8)}${ch(0)}`;
}

const r1 = (n: number) => Math.round(n * 10) / 10;

/** Segments a–g of each digit, top, upper right, lower right, bottom, lower left, upper left, middle. */
const SEGMENTS = ['abcdef', 'bc', 'abdeg', 'abcdg', 'bcfg', 'acdfg', 'acdefg', 'abc', 'abcdefg', 'abcdfg'];

/** A number in seven-segment digits, each 12 × 22, from (x, y). */
function digits(text: string, x: number, y: number, fill: string): string {
  const w = 12;
  const h = 22;
  const s = 2.6;
  const rects: string[] = [];
  [...text].forEach((d, i) => {
    const segs = SEGMENTS[Number(d)] ?? '';
    const ox = x + i * (w + 5);
    const at: Record<string, [number, number, number, number]> = {
      a: [ox + s, y, w - 2 * s, s],
      b: [ox + w - s, y + s, s, h / 2 - 1.5 * s],
      c: [ox + w - s, y + h / 2 + s / 2, s, h / 2 - 1.5 * s],
      d: [ox + s, y + h - s, w - 2 * s, s],
      e: [ox, y + h / 2 + s / 2, s, h / 2 - 1.5 * s],
      f: [ox, y + s, s, h / 2 - 1.5 * s],
      g: [ox + s, y + h / 2 - s / 2, w - 2 * s, s],
    };
    for (const seg of segs) {
      const [rx, ry, rw, rh] = at[seg]!;
      rects.push(`<rect x="${r1(rx)}" y="${r1(ry)}" width="${r1(rw)}" height="${r1(rh)}" rx="1" fill="${fill}"/>`);
    }
  });
  return rects.join('');
}

type Rand = () => number;

function stay(c: string, rnd: Rand): string {
  const horizon = 190 + rnd() * 20;
  const hx = 250 + rnd() * 120;
  const palm = rnd() < 0.5 ? 70 + rnd() * 60 : 400 + rnd() * 40;
  return [
    `<rect y="${r1(horizon)}" width="480" height="${r1(320 - horizon)}" fill="${shade(c, 0.25)}"/>`,
    `<path d="M0 ${r1(horizon + 55)} Q240 ${r1(horizon + 35)} 480 ${r1(horizon + 60)} V320 H0Z" fill="#f1dfb4"/>`,
    `<rect x="${r1(hx)}" y="${r1(horizon - 10)}" width="110" height="70" fill="#fbfaf6"/>`,
    `<path d="M${r1(hx - 12)} ${r1(horizon - 8)} L${r1(hx + 55)} ${r1(horizon - 55)} L${r1(hx + 122)} ${r1(horizon - 8)}Z" fill="${shade(c, -0.25)}"/>`,
    `<rect x="${r1(hx + 45)}" y="${r1(horizon + 22)}" width="20" height="38" fill="${c}"/>`,
    `<rect x="${r1(hx + 12)}" y="${r1(horizon + 5)}" width="22" height="18" fill="${shade(c, 0.55)}"/>`,
    `<rect x="${r1(hx + 76)}" y="${r1(horizon + 5)}" width="22" height="18" fill="${shade(c, 0.55)}"/>`,
    `<path d="M${r1(palm)} 300 Q${r1(palm + 8)} 220 ${r1(palm + 24)} 150" stroke="#6b4f2a" stroke-width="7" fill="none"/>`,
    ...[-60, -20, 20, 60, 100].map(
      (a) =>
        `<ellipse cx="${r1(palm + 24)}" cy="150" rx="38" ry="8" fill="#2f7d3b" transform="rotate(${a} ${r1(palm + 24)} 150) translate(30 0)"/>`,
    ),
  ].join('');
}

function experience(c: string, rnd: Rand): string {
  const peaks = [0, 1, 2].map(() => 120 + rnd() * 260);
  return [
    ...peaks.map((px, i) => {
      const top = 70 + i * 30 + rnd() * 30;
      return `<path d="M${r1(px - 190)} 320 L${r1(px)} ${r1(top)} L${r1(px + 190)} 320Z" fill="${i ? shade(c, -i * 0.15) : c}"/>`;
    }),
    `<path d="M${r1(peaks[0]! - 28)} ${r1(120)} L${r1(peaks[0]!)} ${r1(95)} L${r1(peaks[0]! + 28)} 120Z" fill="#ffffffaa"/>`,
    `<rect y="270" width="480" height="50" fill="${shade(c, -0.45)}"/>`,
    ...[0, 1, 2].map((i) => {
      const bx = 60 + rnd() * 360;
      const by = 40 + rnd() * 60 + i * 6;
      return `<path d="M${r1(bx)} ${r1(by)} q7 -7 14 0 q7 -7 14 0" stroke="#333" stroke-width="2" fill="none"/>`;
    }),
  ].join('');
}

function service(c: string, rnd: Rand): string {
  const sx = 150 + rnd() * 180;
  const stones = [
    [sx, 270, 95, 26],
    [sx + 4, 228, 72, 22],
    [sx - 3, 192, 52, 18],
    [sx + 2, 163, 34, 14],
  ];
  return [
    `<rect y="250" width="480" height="70" fill="${shade(c, 0.55)}"/>`,
    ...stones.map(
      ([x, y, rx, ry], i) =>
        `<ellipse cx="${r1(x!)}" cy="${r1(y!)}" rx="${rx}" ry="${ry}" fill="${i === 3 ? c : shade(c, -0.35 + i * 0.12)}"/>`,
    ),
    ...[-50, -25, 0, 25, 50].map(
      (a) =>
        `<ellipse cx="${r1(sx + 150)}" cy="262" rx="12" ry="34" fill="${shade(c, 0.3)}" transform="rotate(${a} ${r1(sx + 150)} 290)"/>`,
    ),
    `<path d="M${r1(sx - 150)} 300 q20 -60 40 -90 M${r1(sx - 150)} 300 q-10 -50 -30 -70" stroke="#2f7d3b" stroke-width="5" fill="none"/>`,
  ].join('');
}

function transport(c: string, rnd: Rand): string {
  const cx = 90 + rnd() * 200;
  return [
    `<rect y="200" width="480" height="120" fill="#8fbf73"/>`,
    `<path d="M200 200 L280 200 L480 320 L0 320Z" fill="#555b63"/>`,
    `<path d="M240 205 L240 320" stroke="#f4f1e8" stroke-width="4" stroke-dasharray="16 14"/>`,
    `<rect x="${r1(cx)}" y="222" width="170" height="46" rx="12" fill="${c}"/>`,
    `<path d="M${r1(cx + 30)} 224 L${r1(cx + 50)} 190 L${r1(cx + 118)} 190 L${r1(cx + 142)} 224Z" fill="${shade(c, -0.2)}"/>`,
    `<path d="M${r1(cx + 58)} 196 L${r1(cx + 112)} 196 L${r1(cx + 128)} 222 L${r1(cx + 46)} 222Z" fill="${shade(c, 0.7)}"/>`,
    ...[cx + 38, cx + 132].map(
      (wx) => `<circle cx="${r1(wx)}" cy="270" r="18" fill="#222"/><circle cx="${r1(wx)}" cy="270" r="7" fill="#bbb"/>`,
    ),
  ].join('');
}

function food(c: string, rnd: Rand): string {
  const px = 170 + rnd() * 140;
  return [
    `<rect y="210" width="480" height="110" fill="#a8794f"/>`,
    `<rect y="210" width="480" height="8" fill="#8a6240"/>`,
    `<ellipse cx="${r1(px)}" cy="262" rx="120" ry="38" fill="#fbfaf6"/>`,
    `<ellipse cx="${r1(px)}" cy="258" rx="84" ry="24" fill="#ece8df"/>`,
    `<path d="M${r1(px - 70)} 236 A70 56 0 0 0 ${r1(px + 70)} 236Z" fill="${c}"/>`,
    `<ellipse cx="${r1(px)}" cy="236" rx="70" ry="12" fill="${shade(c, 0.45)}"/>`,
    ...[-30, 0, 30].map(
      (dx) =>
        `<path d="M${r1(px + dx)} 215 q-10 -20 0 -40 q10 -20 0 -40" stroke="#ffffffcc" stroke-width="4" fill="none"/>`,
    ),
    `<path d="M${r1(px + 130)} 300 L${r1(px + 40)} 200 M${r1(px + 142)} 296 L${r1(px + 56)} 196" stroke="#5a3b1e" stroke-width="4"/>`,
  ].join('');
}

const SCENES = { stay, experience, service, transport, food } as const;

/** The SVG of a demo photo at its size (the drawing is made on 480 × 320 and scaled). */
export function demoPhotoSvg(p: DemoPhoto): string {
  const { width, height } = PHOTO_SIZES[p.size];
  const colour = KIND_COLOURS[p.kind];
  const rnd = rngOf(p.listing, p.index);
  const skyTop = shade(colour, 0.35 + rnd() * 0.2);
  const skyLow = shade(colour, 0.8 + rnd() * 0.1);
  const sunX = 40 + rnd() * 400;
  const sunY = 40 + rnd() * 60;
  const label = String(p.listing);
  const labelW = 20 + label.length * 17 + (p.index + 1) * 10;
  const dots = Array.from(
    { length: p.index + 1 },
    (_, i) => `<circle cx="${20 + label.length * 17 + i * 10}" cy="302" r="3" fill="#fff"/>`,
  ).join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 480 320" preserveAspectRatio="none">` +
    `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="${skyTop}"/><stop offset="1" stop-color="${skyLow}"/></linearGradient></defs>` +
    `<rect width="480" height="320" fill="url(#sky)"/>` +
    `<circle cx="${r1(sunX)}" cy="${r1(sunY)}" r="26" fill="#ffd75e"/>` +
    SCENES[p.kind](colour, rnd) +
    `<rect x="6" y="282" width="${labelW}" height="32" rx="8" fill="#000000" fill-opacity="0.55"/>` +
    digits(label, 14, 287, '#fff') +
    dots +
    `</svg>`
  );
}
