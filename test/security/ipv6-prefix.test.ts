import { afterAll, describe, expect, it } from 'vitest';
import { writeApi } from '@guest/write-api';
import { readApi } from '@guest/read-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { releaseTogether, uniqueEmail, type BurstAnswer, type BurstRequest } from './support.ts';

// Issue 32 point 6: per-address limits counted the exact address, so one IPv6 /64 (what one
// subscriber or one rented server gets) held 2^64 budgets for email availability, login, captcha
// and registration. They now count an IPv6 client by its /64 (RATE_LIMIT_IPV6_PREFIX) and an IPv4
// client by its address.
//
// The attack: behind one proxy (TRUST_PROXY=1), X-Forwarded-For gives each request an address of
// our choice, every one a fresh address of the same /64 (2001:db8::/32, the documentation range),
// all released together on their own sockets (`releaseTogether`). Each test prints its figures as
// "issue 32 point 6, ...".

const apps: TestApp[] = [];
afterAll(async () => {
  await Promise.all(apps.map((a) => a.close()));
});

async function start(config: Record<string, string | number | boolean> = {}) {
  const t = await startTestApp({
    apps: [writeApi, readApi],
    config: { TRUST_PROXY: 1, MAIL_WORKER: false, ...config },
  });
  apps.push(t);
  return t;
}

let next = 0;
/** A never-seen address inside one /64: what a client holding that prefix rotates through. */
function inPrefix(prefix = '2001:db8:7:42'): string {
  next++;
  const hex = (n: number) => (n & 0xffff).toString(16);
  return `${prefix}:${hex(next >> 16)}:${hex(next)}:${hex(next * 7919)}:${hex(next * 104729)}`;
}

const statuses = (answers: BurstAnswer[]) => answers.map((a) => a.status);
const count = (answers: BurstAnswer[], status: number) => answers.filter((a) => a.status === status).length;

const availability = (address: string): BurstRequest => ({
  method: 'GET',
  path: `/v1/auth/email-availability?email=${encodeURIComponent(uniqueEmail('probe'))}`,
  headers: { 'X-Forwarded-For': address },
});

describe('per-address limits group IPv6 by /64 (issue 32 point 6)', () => {
  it('email availability: 30 probes from 30 addresses of one /64 get the budget of one address', async () => {
    const t = await start({ RATE_LIMIT_EMAIL_AVAILABILITY_PER_MIN: 10 });
    const answers = await releaseTogether(
      t.url,
      Array.from({ length: 30 }, () => availability(inPrefix())),
    );
    console.info(`issue 32 point 6, email availability from one /64: ${count(answers, 200)} of 30 answered`);
    expect(count(answers, 200)).toBe(10);
    expect(count(answers, 429)).toBe(20);
    for (const a of answers.filter((x) => x.status === 429)) {
      expect(a.body.error.details.scope).toBe('email-availability');
    }
    // Another /64 of the same /48, and an IPv4 client, have budgets of their own.
    const [other] = await releaseTogether(t.url, [availability(inPrefix('2001:db8:7:43'))]);
    expect(other!.status).toBe(200);
    const v4 = await releaseTogether(t.url, [availability('203.0.113.7'), availability('203.0.113.8')]);
    expect(statuses(v4)).toEqual([200, 200]);
  });

  it('the prefix is configurable: with 128 bits each address has its own budget (the old behaviour)', async () => {
    const t = await start({ RATE_LIMIT_EMAIL_AVAILABILITY_PER_MIN: 10, RATE_LIMIT_IPV6_PREFIX: 128 });
    const answers = await releaseTogether(
      t.url,
      Array.from({ length: 30 }, () => availability(inPrefix())),
    );
    console.info(`issue 32 point 6, email availability with RATE_LIMIT_IPV6_PREFIX=128: ${count(answers, 200)} of 30`);
    expect(count(answers, 200)).toBe(30);
    // A /48 groups more widely than the default /64.
    const wide = await start({ RATE_LIMIT_EMAIL_AVAILABILITY_PER_MIN: 10, RATE_LIMIT_IPV6_PREFIX: 48 });
    const spread = await releaseTogether(
      wide.url,
      Array.from({ length: 20 }, (_, i) => availability(inPrefix(`2001:db8:7:${(i + 1).toString(16)}`))),
    );
    expect(count(spread, 200)).toBe(10);
  });

  it('login: the per-address limit and the captcha demand hold across one /64', async () => {
    const t = await start({ RATE_LIMIT_LOGIN_PER_MIN: 10, CAPTCHA_AFTER_FAILED_LOGINS_PER_ADDRESS: 1000 });
    // 20 guesses, each for its own email (the per-email back-off stays out of the way).
    const burst = await releaseTogether(
      t.url,
      Array.from({ length: 20 }, () => ({
        method: 'POST',
        path: '/v1/auth/login',
        headers: { 'X-Forwarded-For': inPrefix() },
        body: { email: uniqueEmail(), password: 'a wrong password guess' },
      })),
    );
    console.info(`issue 32 point 6, logins from one /64 in a minute: ${count(burst, 401)} of 20 checked`);
    expect(count(burst, 401)).toBe(10);
    expect(burst.filter((a) => a.status === 429).every((a) => a.body.error.details.scope === 'login')).toBe(true);

    const c = await start({ RATE_LIMIT_LOGIN_PER_MIN: 1000, CAPTCHA_AFTER_FAILED_LOGINS_PER_ADDRESS: 5 });
    const guess = (): BurstRequest => ({
      method: 'POST',
      path: '/v1/auth/login',
      headers: { 'X-Forwarded-For': inPrefix('2001:db8:9:1') },
      body: { email: uniqueEmail(), password: 'a wrong password guess' },
    });
    const first = await releaseTogether(c.url, Array.from({ length: 5 }, guess));
    expect(statuses(first)).toEqual([401, 401, 401, 401, 401]);
    // Five failures from the /64: every further address in it is asked for a captcha.
    const after = await releaseTogether(c.url, Array.from({ length: 5 }, guess));
    expect(after.map((a) => a.body.error.code)).toEqual(Array(5).fill('captcha_required'));
  });

  it('captcha challenges and registrations: one budget per /64', async () => {
    const t = await start({ RATE_LIMIT_CAPTCHA_PER_MIN: 5, CAPTCHA_AFTER_REGISTRATIONS_PER_ADDRESS: 3 });
    const challenges = await releaseTogether(
      t.url,
      Array.from({ length: 10 }, () => ({
        method: 'POST',
        path: '/v1/auth/captcha',
        headers: { 'X-Forwarded-For': inPrefix('2001:db8:a:1') },
      })),
      120_000,
    );
    console.info(`issue 32 point 6, captcha challenges from one /64: ${count(challenges, 200)} of 10`);
    expect(count(challenges, 200)).toBe(5);
    expect(count(challenges, 429)).toBe(5);

    const registrations = await releaseTogether(
      t.url,
      Array.from({ length: 8 }, () => ({
        method: 'POST',
        path: '/v1/auth/register',
        headers: { 'X-Forwarded-For': inPrefix('2001:db8:b:1') },
        body: {
          first_name: 'Anna',
          last_name: 'Lee',
          email: uniqueEmail('sign-up'),
          password: 'plum harbor lantern 57',
          accept_terms: true,
        },
      })),
      120_000,
    );
    console.info(`issue 32 point 6, registrations from one /64: ${count(registrations, 201)} of 8 made accounts`);
    expect(count(registrations, 201)).toBe(3);
    expect(registrations.filter((a) => a.status === 403).map((a) => a.body.error.code)).toEqual(
      Array(5).fill('captcha_required'),
    );
  });

  it('the general per-address limit and the map limit count the /64 too', async () => {
    const t = await start({ RATE_LIMIT_ADDRESS_PER_MIN: 10, MAP_RATE_LIMIT_PER_MIN: 5 });
    const general = await releaseTogether(
      t.url,
      Array.from({ length: 15 }, () => ({
        method: 'GET',
        path: '/v1/currencies',
        headers: { 'X-Forwarded-For': inPrefix('2001:db8:c:1') },
      })),
    );
    expect(count(general, 429)).toBe(5);
    expect(general.filter((a) => a.status === 429).every((a) => a.body.error.details.scope === 'address')).toBe(true);
    // The map proxy has its own per-address budget; a path it refuses (404) still counts.
    const map = await releaseTogether(
      t.url,
      Array.from({ length: 8 }, () => ({
        method: 'GET',
        path: '/v1/map/not-a-resource',
        headers: { 'X-Forwarded-For': inPrefix('2001:db8:d:1') },
      })),
    );
    expect(count(map, 404)).toBe(5);
    expect(count(map, 429)).toBe(3);
  });
});
