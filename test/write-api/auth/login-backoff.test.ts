import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeApi } from '@guest/write-api';
import { fixedClock } from '@guest/runtime';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { expectEnvelope, http, type HttpResult } from '../../support/http.ts';
import { eventually } from '../../support/eventually.ts';
import { mailsTo, PASSWORD, register, relaxedLimits, solvedCaptcha, uniqueEmail, waitForMail } from './support.ts';

// Issue 14 point 3, DESIGN G5d: per-account exponential back-off on failed logins that address
// rotation cannot escape, the same for an email without an account, a notice to the owner under
// a sustained attack, and no lock-out of the owner. Defaults: 3 free failures, then 30 s doubling
// to 900 s. The server's clock is injected, so the back-off is waited out by moving it, and what
// is asserted is the Retry-After the server gives.

const clock = fixedClock(new Date());
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    apps: [writeApi],
    clock,
    config: {
      ...relaxedLimits,
      // Per-address rules at their defaults: each address below is used once, so they never trip.
      RATE_LIMIT_LOGIN_PER_MIN: 10,
      CAPTCHA_AFTER_FAILED_LOGINS_PER_ADDRESS: 5,
      RATE_LIMIT_CAPTCHA_PER_MIN: 10_000,
      // The client address comes from X-Forwarded-For behind one proxy (the test itself).
      TRUST_PROXY: 1,
    },
  });
});
afterAll(async () => t?.close());

let lastOctets = 0;
/** A never-seen address, as a script rotating through a pool of proxies has. */
const freshAddress = () => {
  lastOctets++;
  return `198.51.${100 + (lastOctets >> 8)}.${lastOctets & 255}`;
};

async function attempt(email: string, password: string, address: string, captcha = true): Promise<HttpResult> {
  return http(t.url, 'POST', '/v1/auth/login', {
    headers: { 'x-forwarded-for': address },
    body: { email, password, ...(captcha ? await solvedCaptcha(t, 0, { email, address }) : {}) },
  });
}

/**
 * One wrong password from a fresh address, as a patient attacker sends it: whenever the server
 * answers 429 for the account, the attacker waits the Retry-After (the clock moves) and sends it
 * again. Returns the back-off waited before the guess was taken.
 */
async function guess(email: string): Promise<number> {
  let waited = 0;
  for (;;) {
    const res = await attempt(email, 'a wrong password guess', freshAddress());
    if (res.status === 401) return waited;
    const e = expectEnvelope(res, 429, 'rate_limited');
    expect(e.details.scope).toBe('login-account');
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBe(e.details.retry_after);
    waited += retryAfter;
    clock.advance(retryAfter * 1000);
  }
}

describe('per-account back-off on failed logins', () => {
  it(
    '50 wrong passwords from 50 addresses take over 10 minutes of back-off; the owner still signs in with a captcha',
    { timeout: 180_000 },
    async () => {
      const owner = await register(t);
      const waits: number[] = [];
      for (let i = 0; i < 50; i++) waits.push(await guess(owner.email));
      // Three free failures; from the 4th on each one is followed by 30 s, doubling to 15 minutes.
      expect(waits.slice(0, 11)).toEqual([0, 0, 0, 0, 30, 60, 120, 240, 480, 900, 900]);
      const total = waits.reduce((a, b) => a + b, 0);
      expect(total).toBeGreaterThanOrEqual(600);
      expect(total).toBe(30 + 60 + 120 + 240 + 480 + 41 * 900);

      // During the back-off even the right password is refused, without being tried.
      const held = await attempt(owner.email, PASSWORD, '203.0.113.7');
      expect(expectEnvelope(held, 429, 'rate_limited').details.scope).toBe('login-account');
      clock.advance(Number(held.headers.get('retry-after')) * 1000);
      // Then the owner signs in: a captcha is demanded, and with it the right password passes.
      expectEnvelope(await attempt(owner.email, PASSWORD, '203.0.113.7', false), 403, 'captcha_required');
      expect((await attempt(owner.email, PASSWORD, '203.0.113.7')).status).toBe(200);
      // The success forgives the failures: the next wrong password is not delayed.
      expect(await guess(owner.email)).toBe(0);
      expect(await guess(owner.email)).toBe(0);

      // One notice to the owner for the whole attack, through the mail outbox.
      const notice = await eventually(
        'the lockout notice',
        async () => (await mailsTo(t, owner.email)).filter((m) => /trying to sign in/i.test(m.subject)),
        { until: (m) => m.length >= 1, timeoutMs: 15_000 },
      );
      expect(notice).toHaveLength(1);
      expect(notice[0]!.text).toMatch(/10 failed attempts/);
      const { rows } = await t.sql.query(
        `select count(*)::int as n from mail_outbox where "to" = $1 and subject ~* 'trying'`,
        [owner.email],
      );
      expect(rows[0].n).toBe(1);
    },
  );

  it('an email without an account gets the same answers and the same back-off', async () => {
    const owner = await register(t);
    const nobody = uniqueEmail('nobody');
    const trace = async (email: string) => {
      const out: Array<[number, string | null]> = [];
      for (let i = 0; i < 6; i++) {
        const res = await attempt(email, 'a wrong password guess', freshAddress());
        out.push([res.status, res.headers.get('retry-after')]);
        if (res.status === 429) clock.advance(Number(res.headers.get('retry-after')) * 1000);
        else expect(res.body.error.message).toBe('Wrong email or password.');
      }
      return out;
    };
    const known = await trace(owner.email);
    expect(known).toEqual([
      [401, null],
      [401, null],
      [401, null],
      [401, null],
      [429, '30'],
      [401, null],
    ]);
    expect(await trace(nobody)).toEqual(known);
  });

  it('a password reset lifts the back-off at once', async () => {
    const owner = await register(t);
    for (let i = 0; i < 6; i++) await guess(owner.email);
    expectEnvelope(await attempt(owner.email, PASSWORD, freshAddress()), 429, 'rate_limited');
    const asked = await http(t.url, 'POST', '/v1/auth/password-reset/request', { body: { email: owner.email } });
    expect(asked.status).toBe(202);
    const { token } = await waitForMail(t, owner.email, /reset your password/i);
    const newPassword = 'a brand new passphrase';
    expect(
      (await http(t.url, 'POST', '/v1/auth/password-reset/confirm', { body: { token, password: newPassword } })).status,
    ).toBe(200);
    expect((await attempt(owner.email, newPassword, freshAddress())).status).toBe(200);
  });
});
