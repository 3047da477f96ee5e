import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeApi } from '@guest/write-api';
import { fixedClock } from '@guest/runtime';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { http } from '../support/http.ts';
import { PASSWORD, releaseTogether, signUp, uniqueEmail, type BurstAnswer, type BurstRequest } from './support.ts';

// Issue 32 point 1, DESIGN.md section 7 "Login counting": an attempt is counted, atomically,
// before the password is checked (and before the work of a registration, a reset request or a
// deletion request), so requests released together are held to the same allowance as requests
// sent one after the other, and the back-off keeps escalating from one burst to the next.
//
// The attack is the one measured in the issue: every request on its own socket, written except
// for its last byte, then all last bytes at once (`releaseTogether`). The server sits behind one
// proxy (TRUST_PROXY=1), so X-Forwarded-For gives each request the client address of our choice.
// Addresses are documentation ranges (RFC 5737); no traffic goes to them.
//
// What a guess "reached the password check" means from outside: any answer but the back-off's
// 429 (a 401 for a wrong password, a 200 for the right one). Defaults: 3 free failures per email,
// then 30 s of back-off doubling to 900 s; so at most 4 guesses are checked before the first
// back-off, then one per back-off window. The captcha demand is out of the way here (thresholds
// raised): the issue measured a script that solves 98 % of the puzzles, so the back-off has to
// hold on its own.

const FREE = 3;
const ALLOWANCE = FREE + 1;

let lastAddress = 0;
/** A never-seen client address, as a script rotating through proxies has. */
function freshAddress(): string {
  lastAddress++;
  return `198.51.${100 + (lastAddress >> 8)}.${lastAddress & 255}`;
}

const loginRequest = (email: string, password: string, address = freshAddress()): BurstRequest => ({
  method: 'POST',
  path: '/v1/auth/login',
  headers: { 'X-Forwarded-For': address },
  body: { email, password },
});

/** The answers that are not the back-off's refusal: the guesses the server checked. */
function checked(answers: BurstAnswer[]): BurstAnswer[] {
  return answers.filter((a) => !(a.status === 429 && a.body?.error?.details?.scope === 'login-account'));
}

/** The Retry-After values of the back-off's refusals in a burst, each checked against its body. */
function retryAfters(answers: BurstAnswer[]): number[] {
  const waits = new Set<number>();
  for (const a of answers.filter((x) => x.status === 429)) {
    expect(a.body.error.code).toBe('rate_limited');
    expect(a.body.error.details.scope).toBe('login-account');
    expect(Number(a.headers['retry-after'])).toBe(a.body.error.details.retry_after);
    waits.add(a.body.error.details.retry_after as number);
  }
  return [...waits].sort((a, b) => a - b);
}

/** The one Retry-After of a burst's refusals: they all wait for the same instant (0: none refused). */
function retryAfterOf(answers: BurstAnswer[]): number {
  const waits = retryAfters(answers);
  expect(waits.length, `Retry-After values of one burst: ${waits.join(', ')}`).toBeLessThanOrEqual(1);
  return waits[0] ?? 0;
}

describe('login: counted before the password is checked (issue 32 point 1)', () => {
  const clock = fixedClock(new Date());
  let t: TestApp;

  /**
   * Waits out the back-off a burst started, as the attacker does: one more guess learns its
   * Retry-After (a 429 is not a guess), and the server's clock moves on by that much.
   */
  async function waitOut(email: string): Promise<{ waitedS: number; checked: number }> {
    const [probe] = await releaseTogether(t.url, [loginRequest(email, 'a wrong password guess')]);
    const waitedS = retryAfterOf([probe!]);
    clock.advance(waitedS * 1000);
    return { waitedS, checked: checked([probe!]).length };
  }
  beforeAll(async () => {
    t = await startTestApp({
      apps: [writeApi],
      clock,
      config: {
        TRUST_PROXY: 1,
        MAIL_WORKER: false,
        // Per-address rules at their defaults: the addresses here are used once each, except in
        // the one-address burst, which stays within the 10 logins a minute.
        RATE_LIMIT_LOGIN_PER_MIN: 10,
        CAPTCHA_AFTER_FAILED_LOGINS_PER_EMAIL: 1_000_000,
        CAPTCHA_AFTER_FAILED_LOGINS_PER_ADDRESS: 1_000_000,
        LOGIN_BACKOFF_FREE_FAILURES: FREE,
        LOGIN_BACKOFF_BASE_S: 30,
        LOGIN_BACKOFF_MAX_S: 900,
      },
    });
  });
  afterAll(async () => t?.close());

  it(
    '100 guesses from 100 addresses released together: at most 4 are checked; after the back-off the next burst gets one, and the right password in it is refused',
    { timeout: 120_000 },
    async () => {
      const owner = await signUp(t);
      const first = await releaseTogether(
        t.url,
        Array.from({ length: 100 }, () => loginRequest(owner.email, 'a wrong password guess')),
      );
      const firstChecked = checked(first);
      const firstWaits = retryAfters(first);
      // The next burst as soon as the back-off ends, the right password among its first requests
      // (the 6th written): whatever the server counts first gets the one guess the back-off allows.
      const { waitedS } = await waitOut(owner.email);
      const second = await releaseTogether(
        t.url,
        Array.from({ length: 100 }, (_, i) => loginRequest(owner.email, i === 5 ? PASSWORD : 'a wrong password guess')),
      );
      const right = second[5]!;
      console.info(
        `issue 32, 100 addresses: ${firstChecked.length} of 100 guesses checked ` +
          `(Retry-After of the refused: ${firstWaits.join(', ') || 'none refused'}); ` +
          `after its ${waitedS} s back-off ${checked(second).length} of 100 checked, the right password among them: ${right.status}`,
      );
      expect(firstChecked.length, 'guesses that reached the password check').toBeLessThanOrEqual(ALLOWANCE);
      expect(firstChecked.length).toBeGreaterThanOrEqual(1);
      for (const a of firstChecked) expect(a.status).toBe(401);
      expect(retryAfterOf(first)).toBe(30);
      expect(waitedS).toBe(30);
      expect(checked(second).length, 'guesses of the next burst that reached the password check').toBe(1);
      expect(right.status, 'the right password inside a refused burst').toBe(429);
      expect(retryAfterOf(second), 'the back-off escalates across bursts').toBe(60);
    },
  );

  it('10 guesses from one address released together: at most 4 are checked', async () => {
    const owner = await signUp(t);
    const address = freshAddress();
    const answers = await releaseTogether(
      t.url,
      Array.from({ length: 10 }, () => loginRequest(owner.email, 'a wrong password guess', address)),
    );
    const seen = checked(answers);
    console.info(`issue 32, one address: ${seen.length} of 10 guesses checked`);
    expect(seen.length, 'guesses that reached the password check').toBeLessThanOrEqual(ALLOWANCE);
    for (const a of seen) expect(a.status).toBe(401);
  });

  it(
    'the back-off escalates from burst to burst: 50 failures cost over 10 hours sent all at once too, and the owner still signs in',
    { timeout: 300_000 },
    async () => {
      const owner = await signUp(t);
      const wrong = (n: number) => Array.from({ length: n }, () => loginRequest(owner.email, 'a wrong password guess'));
      let failures = 0;
      let waited = 0;
      let costOf50: number | undefined;
      const bursts: Array<{ size: number; checked: number; backoffS: number }> = [];
      /** A burst, then its back-off waited out; the back-off waited before the 50th checked guess is its cost. */
      const burst = async (size: number) => {
        const n = checked(await releaseTogether(t.url, wrong(size))).length;
        failures += n;
        if (costOf50 === undefined && failures >= 50) costOf50 = waited;
        const out = await waitOut(owner.email);
        failures += out.checked;
        waited += out.waitedS;
        bursts.push({ size, checked: n, backoffS: out.waitedS });
      };

      await burst(100);
      await burst(100);
      // Then bursts of 10, each as soon as the back-off allows, until 50 guesses were checked.
      while (costOf50 === undefined && bursts.length < 60) await burst(10);
      const [b1, b2] = bursts as [(typeof bursts)[0], (typeof bursts)[0]];
      console.info(
        `issue 32, bursts: first ${b1.checked} of 100 checked, after its ${b1.backoffS} s back-off ${b2.checked} of 100 ` +
          `checked (next back-off ${b2.backoffS} s); 50 failures cost ${costOf50} s ` +
          `(${((costOf50 ?? 0) / 3600).toFixed(1)} h) of back-off in ${bursts.length} bursts`,
      );
      expect(b1.checked, 'guesses of the first burst that reached the password check').toBeLessThanOrEqual(ALLOWANCE);
      const later = bursts.slice(1).map((b) => b.checked);
      expect(later, 'guesses checked per burst after each back-off').toEqual(later.map(() => 1));
      // Exactly what a patient attacker pays, one guess at a time (login-backoff.test.ts):
      // 30 s doubling to 15 minutes after each failure from the 4th on, before the 50th guess.
      expect(bursts.slice(0, 7).map((b) => b.backoffS)).toEqual([30, 60, 120, 240, 480, 900, 900]);
      expect(costOf50).toBeGreaterThanOrEqual(10 * 3600);
      expect(costOf50).toBe(30 + 60 + 120 + 240 + 480 + 41 * 900);

      // The owner, with the back-off over, signs in; the success forgives the failures.
      const owned = await http(t.url, 'POST', '/v1/auth/login', {
        headers: { 'x-forwarded-for': freshAddress() },
        body: { email: owner.email, password: PASSWORD },
      });
      expect(owned.status).toBe(200);
      expect(checked(await releaseTogether(t.url, wrong(10))).length).toBe(ALLOWANCE);
    },
  );

  it('an email without an account is held to the same allowance', async () => {
    const nobody = uniqueEmail('nobody');
    const answers = await releaseTogether(
      t.url,
      Array.from({ length: 50 }, () => loginRequest(nobody, 'a wrong password guess')),
    );
    const seen = checked(answers);
    console.info(`issue 32, email without an account: ${seen.length} of 50 guesses checked`);
    expect(seen.length).toBeLessThanOrEqual(ALLOWANCE);
    expect(seen.length).toBeGreaterThanOrEqual(1);
    for (const a of seen) expect(a.status).toBe(401);
    expect(retryAfterOf(answers)).toBe(30);
  });
});

describe('registration, reset and deletion requests: counted before the work (issue 32 point 1)', () => {
  // Default thresholds: a captcha after 3 registrations and 5 reset requests per address within
  // the hour, and after 3 deletion requests per account. Every request here comes from one address.
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ apps: [writeApi], config: { TRUST_PROXY: 1, MAIL_WORKER: false } });
  });
  afterAll(async () => t?.close());

  const tally = (answers: BurstAnswer[]) => {
    const out: Record<number, number> = {};
    for (const a of answers) out[a.status] = (out[a.status] ?? 0) + 1;
    return out;
  };

  it('10 registrations from one address released together: 3 accounts, the rest need a captcha', async () => {
    const answers = await releaseTogether(
      t.url,
      Array.from({ length: 10 }, () => ({
        method: 'POST',
        path: '/v1/auth/register',
        headers: { 'X-Forwarded-For': '203.0.113.10' },
        body: { first_name: 'A', last_name: 'B', email: uniqueEmail(), password: PASSWORD, accept_terms: true },
      })),
    );
    console.info(`issue 32, registrations: ${JSON.stringify(tally(answers))}`);
    expect(tally(answers)).toEqual({ 201: 3, 403: 7 });
    for (const a of answers.filter((x) => x.status === 403)) expect(a.body.error.code).toBe('captcha_required');
  });

  it('20 password-reset requests from one address released together: 5 are taken, the rest need a captcha', async () => {
    const answers = await releaseTogether(
      t.url,
      Array.from({ length: 20 }, () => ({
        method: 'POST',
        path: '/v1/auth/password-reset/request',
        headers: { 'X-Forwarded-For': '203.0.113.11' },
        body: { email: uniqueEmail() },
      })),
    );
    console.info(`issue 32, reset requests: ${JSON.stringify(tally(answers))}`);
    expect(tally(answers)).toEqual({ 202: 5, 403: 15 });
    for (const a of answers.filter((x) => x.status === 403)) expect(a.body.error.code).toBe('captcha_required');
  });

  it('10 deletion requests of one account released together: 3 links are mailed, the rest need a captcha', async () => {
    const me = await signUp(t, { 'x-forwarded-for': '203.0.113.12' });
    const answers = await releaseTogether(
      t.url,
      Array.from({ length: 10 }, () => ({
        method: 'POST',
        path: '/v1/auth/delete-request',
        headers: { 'X-Forwarded-For': '203.0.113.12', Authorization: `Bearer ${me.token}` },
      })),
    );
    console.info(`issue 32, deletion requests: ${JSON.stringify(tally(answers))}`);
    expect(tally(answers)).toEqual({ 202: 3, 403: 7 });
    const { rows } = await t.sql.query(
      `select count(*)::int as n from mail_outbox where account_id = $1 and subject ~* 'delet'`,
      [me.accountId],
    );
    expect(rows[0].n).toBe(3);
  });
});
