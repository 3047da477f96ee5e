import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '@guest/config';
import type { TestApp } from '../../support/test-app.ts';
import { http } from '../../support/http.ts';
import { startAuthApp } from './support.ts';
import { cropMatch, decode, edgeMatch } from './captcha-solvers.ts';

// Issue 14 point 2: the scripts that solve the old puzzle (20 of 20 each) stay in the suite, and
// each must fail on at least 90 % of 200 fresh challenges. Measured on the current drawing over
// five runs: crop matching 2.5-5 %, edge matching 3.5-6.5 % (a blind guess lands within the
// tolerance about 4 % of the time). A few challenges are saved as pictures in test-output/captcha/
// (git-ignored): the piece under the picture as a client shows it, and the solution with the piece
// on its shadow, for a person to check that the puzzle stays solvable (one shadow has the piece's
// silhouette).

const CHALLENGES = 200;
const MAX_RATE = 0.1;
const shots = path.join(repoRoot, 'test-output', 'captcha');

let t: TestApp;
beforeAll(async () => {
  t = await startAuthApp({ RATE_LIMIT_CAPTCHA_PER_MIN: 10_000 });
  await mkdir(shots, { recursive: true });
});
afterAll(async () => t?.close());

async function screenshot(i: number, background: string, piece: string, answer: { x: number; y: number }) {
  const img = (u: string) => Buffer.from(u.split(',')[1]!, 'base64');
  const canvas = (left: number) =>
    sharp({ create: { width: 320, height: 232, channels: 4, background: '#ffffff' } })
      .composite([
        { input: img(background), left: 0, top: 0 },
        { input: img(piece), left, top: 170 },
      ])
      .png()
      .toBuffer();
  await writeFile(path.join(shots, `challenge-${i}.png`), await canvas(0));
  const solved = await sharp(img(background))
    .composite([{ input: img(piece), left: answer.x, top: answer.y }])
    .png()
    .toBuffer();
  await writeFile(path.join(shots, `challenge-${i}-answer.png`), solved);
}

describe('scripted solvers against the slider puzzle', () => {
  it(
    `crop matching solves at most ${MAX_RATE * 100} %, edge matching at most ${MAX_RATE * 100} % of ${CHALLENGES} challenges each`,
    { timeout: 600_000 },
    async () => {
      let crop = 0;
      let edge = 0;
      for (let i = 0; i < CHALLENGES; i++) {
        const res = await http(t.url, 'POST', '/v1/auth/captcha');
        expect(res.status).toBe(200);
        const answer = JSON.parse((await t.runtime.redis.get(`captcha:${res.body.captcha_id}`))!) as {
          x: number;
          y: number;
        };
        const [bg, piece] = await Promise.all([decode(res.body.background), decode(res.body.piece)]);
        const near = (x: number) => Math.abs(x - answer.x) <= t.config.CAPTCHA_TOLERANCE_PX;
        if (near(cropMatch(bg, piece))) crop++;
        if (near(edgeMatch(bg, piece))) edge++;
        if (i < 4) await screenshot(i, res.body.background, res.body.piece, answer);
      }
      console.info(`captcha solvers over ${CHALLENGES} challenges: crop matching ${crop}, edge matching ${edge}`);
      expect(crop / CHALLENGES).toBeLessThanOrEqual(MAX_RATE);
      expect(edge / CHALLENGES).toBeLessThanOrEqual(MAX_RATE);
    },
  );
});
