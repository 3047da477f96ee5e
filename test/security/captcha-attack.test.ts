import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeApi } from '@guest/write-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { http, type HttpResult } from '../support/http.ts';
import { signUp, uniqueEmail } from './support.ts';
import { decode, solveImage, solvePow, threadCpuSeconds, type PowChallenge } from './captcha-solver.ts';

// Issue 32 point 2, DESIGN section 7 "Captcha (G5d), revised": a script solved 98.2 % of the
// puzzles and paid 3-13 ms of proof of work for each, and challenges were not bound to whoever
// fetched them. The drawing cannot be the defence; the price of each answer is. This file attacks
// the running server with a solver of its own (./captcha-solver.ts: the piece's alpha outline,
// colour-neutral shadow edges in log space) and a native proof of work, and counts what the
// server accepts: a captcha sent with a login is checked even when not demanded, and an accepted
// one lets the guess reach the password check (401), a refused one is 403 captcha_required.
// Behind TRUST_PROXY=1 each attempt comes from an address of its own. The attacker's CPU is this
// thread's (`process.threadCpuUsage`): the image solver and the PBKDF2 loop run on it, the
// server's work on others or between attempts. Prints its figures as "issue 32 point 2, ...".

const ATTEMPTS = Number(process.env.CAPTCHA_ATTACK_ATTEMPTS ?? 24);

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    apps: [writeApi],
    config: {
      TRUST_PROXY: 1,
      MAIL_WORKER: false,
      RATE_LIMIT_CAPTCHA_PER_MIN: 10_000,
      RATE_LIMIT_LOGIN_PER_MIN: 10_000,
      // The back-off stays out of the way: the captcha is what is measured here.
      LOGIN_BACKOFF_FREE_FAILURES: 100,
    },
  });
});
afterAll(async () => t?.close());

let lastAddress = 0;
const freshAddress = () => {
  lastAddress++;
  return `198.51.${100 + (lastAddress >> 8)}.${lastAddress & 255}`;
};

interface Fetched {
  captcha_id: string;
  background: string;
  piece: string;
  pow: PowChallenge & { max_counter: number; level: number };
}

async function fetchChallenge(address: string, email: string): Promise<Fetched> {
  const res = await http(t.url, 'POST', '/v1/auth/captcha', {
    headers: { 'x-forwarded-for': address },
    body: { email },
  });
  expect(res.status, res.text).toBe(200);
  return res.body as Fetched;
}

interface Solved {
  pair: { captcha_id: string; captcha_answer: string; captcha_nonce: string };
  imageCpu: number;
  powCpu: number;
  counters: number;
}

/** What the script does with a challenge: solves the picture, then does the work. */
async function solve(c: Fetched): Promise<Solved> {
  const [bg, piece] = await Promise.all([decode(c.background), decode(c.piece)]);
  const a = threadCpuSeconds();
  const x = solveImage(bg, piece);
  const b = threadCpuSeconds();
  const { counter, tried } = solvePow(c.pow);
  const e = threadCpuSeconds();
  return {
    pair: { captcha_id: c.captcha_id, captcha_answer: String(x), captcha_nonce: String(counter) },
    imageCpu: b - a,
    powCpu: e - b,
    counters: tried,
  };
}

const guess = (address: string, email: string, pair: Solved['pair']): Promise<HttpResult> =>
  http(t.url, 'POST', '/v1/auth/login', {
    headers: { 'x-forwarded-for': address },
    body: { email, password: 'a wrong password guess', ...pair },
  });

describe('a script pays for every answer (issue 32 point 2)', () => {
  it(
    `the solver against ${ATTEMPTS} challenges at the first level: success rate and CPU-seconds per accepted answer`,
    { timeout: 900_000 },
    async () => {
      let accepted = 0;
      let imageCpu = 0;
      let powCpu = 0;
      let counters = 0;
      let maxCounter = 0;
      for (let i = 0; i < ATTEMPTS; i++) {
        const address = freshAddress();
        const email = uniqueEmail('stuffed');
        const challenge = await fetchChallenge(address, email);
        expect(challenge.pow.level).toBe(1);
        maxCounter = challenge.pow.max_counter;
        const s = await solve(challenge);
        imageCpu += s.imageCpu;
        powCpu += s.powCpu;
        counters += s.counters;
        const res = await guess(address, email, s.pair);
        if (res.status === 401) accepted++;
        else
          expect(res.body.error, res.text).toMatchObject({
            code: 'captcha_required',
            details: { reason: 'wrong_answer' },
          });
      }
      const rate = accepted / ATTEMPTS;
      const perAccepted = (imageCpu + powCpu) / Math.max(1, accepted);
      // What one accepted answer costs on average, from this run's own speeds: the image, and
      // half the counters of the level (the counter is drawn uniformly below max_counter) at the
      // CPU each counter took here, over the success rate.
      const secondsPerCounter = powCpu / counters;
      const expectedPerAccepted = (imageCpu / ATTEMPTS + secondsPerCounter * ((maxCounter + 1) / 2)) / rate;
      console.info(
        `issue 32 point 2, solver at level 1: ${accepted} of ${ATTEMPTS} accepted (${(rate * 100).toFixed(1)} %); ` +
          `attacker CPU ${(imageCpu / ATTEMPTS).toFixed(2)} s image + ${(powCpu / ATTEMPTS).toFixed(2)} s proof of work a try, ` +
          `${perAccepted.toFixed(2)} CPU-s per accepted answer in this run, ${expectedPerAccepted.toFixed(2)} expected ` +
          `(${(secondsPerCounter * 1000).toFixed(2)} ms a counter, max_counter ${maxCounter})`,
      );
      // The drawing alone no longer decides: the solver gets most of them right...
      expect(rate).toBeGreaterThan(0.5);
      // ...and each accepted answer still costs the script at least 11 million PBKDF2 iterations
      // (half the counters of the level, each CAPTCHA_POW_COST iterations, over the success
      // rate): about 2 CPU-seconds of one server core. The CPU-seconds are printed, not judged:
      // they halve or double with the machine and its load (1.03 ms a counter in one run,
      // 0.59 ms in another), the work does not.
      const iterationsPerAccepted = (((maxCounter + 1) / 2) * t.config.CAPTCHA_POW_COST) / rate;
      expect(iterationsPerAccepted).toBeGreaterThanOrEqual(11_000_000);
    },
  );

  it('the price doubles with each further failure of the account, from any address', { timeout: 900_000 }, async () => {
    const owner = await signUp(t);
    const threshold = t.config.CAPTCHA_AFTER_FAILED_LOGINS_PER_EMAIL;
    // The free failures, from addresses of their own.
    for (let i = 0; i < threshold; i++) {
      expect(
        (
          await http(t.url, 'POST', '/v1/auth/login', {
            headers: { 'x-forwarded-for': freshAddress() },
            body: { email: owner.email, password: 'a wrong password guess' },
          })
        ).status,
      ).toBe(401);
    }
    const levels: Array<{ level: number; maxCounter: number; powCpu: number }> = [];
    // Four guesses through the captcha, each from a fresh address; the answer is taken from the
    // server's store when the solver misses the picture, so that every try is a failure and the
    // price rises as it would for a patient script.
    for (let i = 0; i < 4; i++) {
      const address = freshAddress();
      const c = await fetchChallenge(address, owner.email);
      const s = await solve(c);
      const { x } = JSON.parse((await t.runtime.redis.get(`captcha:${c.captcha_id}`))!) as { x: number };
      const res = await guess(address, owner.email, { ...s.pair, captcha_answer: String(x) });
      expect(res.status, res.text).toBe(401);
      levels.push({ level: c.pow.level, maxCounter: c.pow.max_counter, powCpu: s.powCpu });
    }
    console.info(
      `issue 32 point 2, one account under attack: ` +
        levels.map((l) => `level ${l.level} (max_counter ${l.maxCounter}) ${l.powCpu.toFixed(2)} CPU-s`).join(', '),
    );
    expect(levels.map((l) => l.level)).toEqual([1, 2, 3, 4]);
    expect(levels.map((l) => l.maxCounter)).toEqual([1, 2, 4, 8].map((k) => k * t.config.CAPTCHA_POW_COUNTERS));
  });

  it('a challenge answers once, for the address and email that fetched it, and not after it expired', async () => {
    const email = uniqueEmail('bound');
    const address = freshAddress();
    // Solved for real, then spent by another address: refused, and used up.
    const c = await fetchChallenge(address, email);
    const { x, counter } = JSON.parse((await t.runtime.redis.get(`captcha:${c.captcha_id}`))!) as {
      x: number;
      counter: number;
    };
    const right = { captcha_id: c.captcha_id, captcha_answer: String(x), captcha_nonce: String(counter) };
    const elsewhere = await guess(freshAddress(), email, right);
    expect(elsewhere.body.error.details.reason).toBe('other_client');
    expect((await guess(address, email, right)).body.error.details.reason).toBe('wrong_answer');

    // For another email: refused.
    const d = await fetchChallenge(address, email);
    const stored = JSON.parse((await t.runtime.redis.get(`captcha:${d.captcha_id}`))!) as {
      x: number;
      counter: number;
    };
    const pair = { captcha_id: d.captcha_id, captcha_answer: String(stored.x), captcha_nonce: String(stored.counter) };
    expect((await guess(address, uniqueEmail('other'), pair)).body.error.details.reason).toBe('other_client');

    // Right, once: accepted (the wrong password is then checked); twice: refused.
    const e = await fetchChallenge(address, email);
    const ok = JSON.parse((await t.runtime.redis.get(`captcha:${e.captcha_id}`))!) as { x: number; counter: number };
    const once = { captcha_id: e.captcha_id, captcha_answer: String(ok.x), captcha_nonce: String(ok.counter) };
    expect((await guess(address, email, once)).status).toBe(401);
    expect((await guess(address, email, once)).body.error.details.reason).toBe('wrong_answer');

    // Short-lived: it is kept CAPTCHA_TTL_S seconds.
    const f = await fetchChallenge(address, email);
    const ttl = await t.runtime.redis.ttl(`captcha:${f.captcha_id}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(t.config.CAPTCHA_TTL_S);
  });
});
