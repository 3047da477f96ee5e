import { pbkdf2Sync } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../support/test-app.ts';
import { expectEnvelope, http } from '../../support/http.ts';
import { login, register, solvedCaptcha, startAuthApp, uniqueEmail, waitForMail } from './support.ts';

// Default thresholds (3 failures per email, 5 per address, 3 registrations per address, 5 reset
// requests per address, 3 deletion requests per account) and login limit (10/min per address).
// The address is 127.0.0.1 for every request, so each describe block gets its own app.
let t: TestApp;
afterAll(async () => t?.close());
async function fresh(config: Record<string, string | number | boolean> = {}) {
  await t?.close();
  t = await startAuthApp({
    CAPTCHA_AFTER_FAILED_LOGINS_PER_ADDRESS: 5,
    CAPTCHA_AFTER_REGISTRATIONS_PER_ADDRESS: 3,
    CAPTCHA_AFTER_RESET_REQUESTS_PER_ADDRESS: 5,
    ...config,
  });
}
const png = (dataUrl: string) => {
  expect(dataUrl.startsWith('data:image/png;base64,')).toBe(true);
  return sharp(Buffer.from(dataUrl.split(',')[1]!, 'base64')).metadata();
};

describe('POST /v1/auth/captcha (G5d)', () => {
  beforeAll(() => fresh());

  it('returns a slider puzzle drawn as PNGs: background with the gap and a transparent piece', async () => {
    const res = await http(t.url, 'POST', '/v1/auth/captcha');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ captcha_id: expect.stringMatching(/^[0-9a-f-]{36}$/), expires_in: 120 });
    const bg = await png(res.body.background);
    expect([bg.format, bg.width, bg.height]).toEqual(['png', res.body.width, res.body.height]);
    const piece = await png(res.body.piece);
    expect([piece.width, piece.height, piece.hasAlpha]).toEqual([res.body.piece_size, res.body.piece_size, true]);
    // The row of the piece is not handed out (issue 14 point 2); a proof of work comes along.
    expect(res.body).not.toHaveProperty('piece_y');
    expect(res.body.pow).toEqual({
      algorithm: 'PBKDF2/SHA-256',
      nonce: expect.stringMatching(/^[0-9a-f]{32}$/),
      salt: expect.stringMatching(/^[0-9a-f]{32}$/),
      cost: 5000,
      key_length: 32,
      key_prefix: expect.stringMatching(/^[0-9a-f]{32}$/),
      max_counter: 4400,
      level: 1,
    });
    // The stored counter solves it: PBKDF2 of nonce + counter (uint32, big-endian) starts with the prefix.
    const { counter } = JSON.parse((await t.runtime.redis.get(`captcha:${res.body.captcha_id}`))!) as {
      counter: number;
    };
    expect(counter).toBeLessThan(4400);
    const password = Buffer.concat([Buffer.from(res.body.pow.nonce, 'hex'), Buffer.alloc(4)]);
    password.writeUInt32BE(counter, 16);
    const key = pbkdf2Sync(password, Buffer.from(res.body.pow.salt, 'hex'), 5000, 32, 'sha256');
    expect(key.toString('hex').startsWith(res.body.pow.key_prefix)).toBe(true);
    // Expires: the answer is kept only for expires_in seconds.
    const ttl = await t.runtime.redis.ttl(`captcha:${res.body.captcha_id}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(120);
    // Two puzzles differ.
    const other = await http(t.url, 'POST', '/v1/auth/captcha');
    expect(other.body.background).not.toBe(res.body.background);
  });
});

describe('login demands a captcha after repeated failures', () => {
  // Only the per-email rule here; the per-address one has its own block, and the per-account
  // back-off its own file (login-backoff.test.ts).
  beforeAll(() => fresh({ CAPTCHA_AFTER_FAILED_LOGINS_PER_ADDRESS: 1000, LOGIN_BACKOFF_FREE_FAILURES: 100 }));

  it('per email: after 3 failures even the right password needs a solved captcha; refresh never does', async () => {
    const u = await register(t);
    for (let i = 0; i < 3; i++) expectEnvelope(await login(t, u.email, 'wrong password again'), 401, 'unauthorized');
    const demanded = expectEnvelope(await login(t, u.email), 403, 'captcha_required');
    expect(demanded.details).toMatchObject({ captcha: 'POST /v1/auth/captcha', reason: 'demanded' });

    // Refresh has no captcha by design.
    const r = await http(t.url, 'POST', '/v1/auth/refresh', { body: { refresh_token: u.tokens.refresh_token } });
    expect(r.status).toBe(200);

    // A wrong answer (5 px off; 4 are tolerated) is refused and uses the puzzle up.
    const off = await solvedCaptcha(t, 5);
    expect(expectEnvelope(await login(t, u.email, undefined, off), 403, 'captcha_required').details.reason).toBe(
      'wrong_answer',
    );
    const ok = await solvedCaptcha(t, -4);
    expect((await login(t, u.email, undefined, ok)).status).toBe(200);
    // Single use: the same solved pair does not pass twice.
    expectEnvelope(await login(t, u.email, undefined, ok), 403, 'captcha_required');
  });

  it('per email: a solved captcha does not make a wrong password right, and success clears the counter', async () => {
    const u = await register(t);
    for (let i = 0; i < 3; i++) await login(t, u.email, 'wrong password again');
    expectEnvelope(
      await login(t, u.email, 'wrong password again', await solvedCaptcha(t, 0, { email: u.email })),
      401,
      'unauthorized',
    );
    expect((await login(t, u.email, undefined, await solvedCaptcha(t, 0, { email: u.email }))).status).toBe(200);
    expect((await login(t, u.email)).status).toBe(200);
  });

  it('an expired puzzle is refused', async () => {
    const u = await register(t);
    for (let i = 0; i < 3; i++) await login(t, u.email, 'wrong password again');
    const pair = await solvedCaptcha(t);
    await t.runtime.redis.del(`captcha:${pair.captcha_id}`); // what its TTL does after 120 s
    expectEnvelope(await login(t, u.email, undefined, pair), 403, 'captcha_required');
  });
});

describe('per address', () => {
  beforeAll(() => fresh());

  it('after 5 failures from one address, any email from it needs a captcha, and so does a deletion request', async () => {
    const u = await register(t);
    for (let i = 0; i < 5; i++) await login(t, uniqueEmail('spray'), 'wrong password again');
    expectEnvelope(await login(t, u.email), 403, 'captcha_required');
    expect((await login(t, u.email, undefined, await solvedCaptcha(t, 0, { email: u.email }))).status).toBe(200);
    // The client now looks like a robot: the empty pair no longer passes for deletion.
    const del = await http(t.url, 'POST', '/v1/auth/delete-request', { token: u.tokens.access_token });
    expectEnvelope(del, 403, 'captcha_required');
    // A challenge fetched without the session does not answer for it.
    const anonymous = await http(t.url, 'POST', '/v1/auth/delete-request', {
      token: u.tokens.access_token,
      body: await solvedCaptcha(t),
    });
    expect(expectEnvelope(anonymous, 403, 'captcha_required').details.reason).toBe('other_client');
    const solved = await http(t.url, 'POST', '/v1/auth/delete-request', {
      token: u.tokens.access_token,
      body: await solvedCaptcha(t, 0, { token: u.tokens.access_token }),
    });
    expect(solved.status).toBe(202);
  });
});

describe('the answer is a strict integer and carries the proof of work (issue 14 point 2)', () => {
  beforeAll(() => fresh({ CAPTCHA_AFTER_FAILED_LOGINS_PER_ADDRESS: 1000, LOGIN_BACKOFF_FREE_FAILURES: 100 }));

  it("takes decimal digits in a string (the spec's type); numbers, hex, exponents, signs and spaces are refused", async () => {
    const u = await register(t);
    for (const bad of ['0xc0', ' 79e0 ', '79e0', '+79', '-1', '7.0', ' 79', '79 ', '１２']) {
      const pair = await solvedCaptcha(t);
      const res = await login(t, u.email, undefined, { ...pair, captcha_answer: bad });
      expect([bad, res.status]).toEqual([bad, 422]);
      expect(res.body.error.details.fields).toContain('captcha_answer');
    }
    // A JSON number, even the right offset, is not the string the document declares.
    const asNumber = await solvedCaptcha(t);
    for (const bad of [79.5, -3, Number(asNumber.captcha_answer)]) {
      const res = await login(t, u.email, undefined, { ...asNumber, captcha_answer: bad });
      expect([bad, res.status]).toEqual([bad, 422]);
      expect(res.body.error.details.fields).toContain('captcha_answer');
    }
    expect((await login(t, u.email, undefined, await solvedCaptcha(t))).status).toBe(200);
  });

  it('without the nonce, or with a wrong one, a right offset is refused and the challenge is used up', async () => {
    const u = await register(t);
    for (let i = 0; i < 3; i++) await login(t, u.email, 'wrong password again');
    const pair = await solvedCaptcha(t);
    const withoutNonce = { captcha_id: pair.captcha_id, captcha_answer: pair.captcha_answer };
    expect(
      expectEnvelope(await login(t, u.email, undefined, withoutNonce), 403, 'captcha_required').details.reason,
    ).toBe('wrong_answer');
    // Used up by the refused try, even with the right nonce now.
    expectEnvelope(await login(t, u.email, undefined, pair), 403, 'captcha_required');

    const other = await solvedCaptcha(t);
    // Answered with a counter that does not solve its own proof of work.
    const bad = Number(other.captcha_nonce) + 1;
    expect(
      expectEnvelope(
        await login(t, u.email, undefined, { ...other, captcha_nonce: String(bad) }),
        403,
        'captcha_required',
      ).details.reason,
    ).toBe('wrong_answer');
    // With the work done, the same kind of answer passes.
    expect((await login(t, u.email, undefined, await solvedCaptcha(t, 0, { email: u.email }))).status).toBe(200);
  });
});

describe('login rate limit', () => {
  beforeAll(() => fresh({ RATE_LIMIT_LOGIN_PER_MIN: 10 }));

  it('answers 429 rate_limited with Retry-After after 10 logins a minute from one address', async () => {
    const u = await register(t);
    for (let i = 0; i < 10; i++) expect((await login(t, u.email)).status).toBe(200);
    const over = await login(t, u.email);
    expectEnvelope(over, 429, 'rate_limited');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('registration burst and reset burst from one address', () => {
  beforeAll(() => fresh());

  it('the 4th registration within the hour from one address needs a captcha', async () => {
    for (let i = 0; i < 3; i++) await register(t);
    const body = {
      first_name: 'A',
      last_name: 'B',
      email: uniqueEmail(),
      password: 'a fine passphrase',
      accept_terms: true,
    };
    expectEnvelope(await http(t.url, 'POST', '/v1/auth/register', { body }), 403, 'captcha_required');
    const ok = await http(t.url, 'POST', '/v1/auth/register', { body: { ...body, ...(await solvedCaptcha(t)) } });
    expect(ok.status).toBe(201);
  });

  it('the 6th password-reset request within the hour from one address needs a captcha', async () => {
    const u = await register(t, await solvedCaptcha(t));
    for (let i = 0; i < 5; i++) {
      expect(
        (await http(t.url, 'POST', '/v1/auth/password-reset/request', { body: { email: uniqueEmail() } })).status,
      ).toBe(202);
    }
    expectEnvelope(
      await http(t.url, 'POST', '/v1/auth/password-reset/request', { body: { email: u.email } }),
      403,
      'captcha_required',
    );
    const ok = await http(t.url, 'POST', '/v1/auth/password-reset/request', {
      body: { email: u.email, ...(await solvedCaptcha(t)) },
    });
    expect(ok.status).toBe(202);
    await waitForMail(t, u.email, /reset your password/i);
  });
});

describe('registration burst counts every attempt, whatever its outcome', () => {
  beforeAll(() => fresh());

  const attempt = (over: Record<string, unknown> = {}) =>
    http(t.url, 'POST', '/v1/auth/register', {
      body: {
        first_name: 'A',
        last_name: 'B',
        email: uniqueEmail(),
        password: 'a fine passphrase',
        accept_terms: true,
        ...over,
      },
    });

  it('probing taken emails and breaking rules from one address soon demands a captcha, even for a taken email', async () => {
    const taken = 'taken-' + uniqueEmail();
    await t.sql.query(
      `insert into accounts (email, password_hash, first_name, last_name, terms_accepted_at) values ($1, 'x', 'T', 'K', now())`,
      [taken],
    );
    // Three attempts within the hour, none of them a registration.
    expect(expectEnvelope(await attempt({ email: taken }), 409, 'conflict').details.reason).toBe('email_taken');
    expectEnvelope(await attempt({ accept_terms: false }), 400, 'validation_error');
    expectEnvelope(await attempt({ password: 'short' }), 400, 'validation_error');
    // The burst is reached: the 4th attempt needs a captcha, whatever it asks.
    const probe = expectEnvelope(await attempt({ email: taken }), 403, 'captcha_required');
    expect(probe.details).toMatchObject({ captcha: 'POST /v1/auth/captcha', reason: 'demanded' });
    expectEnvelope(await attempt(), 403, 'captcha_required');
    // A solved captcha lets one attempt through, with its own outcome.
    expect(
      expectEnvelope(await attempt({ email: taken, ...(await solvedCaptcha(t)) }), 409, 'conflict').details.reason,
    ).toBe('email_taken');
    expect((await attempt(await solvedCaptcha(t))).status).toBe(201);
  });
});

describe('a challenge is bound to who fetched it and priced by the failures (issue 32 point 2)', () => {
  beforeAll(() => fresh({ CAPTCHA_AFTER_FAILED_LOGINS_PER_ADDRESS: 1000, LOGIN_BACKOFF_FREE_FAILURES: 100 }));

  const levelOf = async (email?: string) => {
    const { pow } = (await http(t.url, 'POST', '/v1/auth/captcha', email ? { body: { email } } : {})).body as {
      pow: { level: number; max_counter: number };
    };
    return { level: pow.level, max_counter: pow.max_counter };
  };

  it('the level rises with each failure past the threshold, and a cheaper challenge fetched before is refused', async () => {
    const u = await register(t);
    for (let i = 0; i < 3; i++) await login(t, u.email, 'wrong password again');
    expect(await levelOf(u.email)).toEqual({ level: 1, max_counter: 4400 });
    // Fetched now at level 1, kept for later, as a script stockpiles them.
    const stock = await solvedCaptcha(t, 0, { email: u.email });
    expectEnvelope(
      await login(t, u.email, 'wrong password again', await solvedCaptcha(t, 0, { email: u.email })),
      401,
      'unauthorized',
    );
    expect(await levelOf(u.email)).toEqual({ level: 2, max_counter: 8800 });
    const refused = expectEnvelope(await login(t, u.email, undefined, stock), 403, 'captcha_required');
    expect(refused.details.reason).toBe('too_easy');
    // Without the email, only the address's failures count: still the first level, and refused for this email.
    expect((await levelOf()).level).toBe(1);
    expect(
      expectEnvelope(await login(t, u.email, undefined, await solvedCaptcha(t)), 403, 'captcha_required').details
        .reason,
    ).toBe('too_easy');
    expect((await login(t, u.email, undefined, await solvedCaptcha(t, 0, { email: u.email }))).status).toBe(200);
  });

  it('a challenge fetched for one email does not answer for another', async () => {
    const u = await register(t);
    for (let i = 0; i < 3; i++) await login(t, u.email, 'wrong password again');
    const forOther = await solvedCaptcha(t, 0, { email: uniqueEmail('other') });
    const e = expectEnvelope(await login(t, u.email, undefined, forOther), 403, 'captcha_required');
    expect(e.details.reason).toBe('other_client');
  });

  it('the level stops at CAPTCHA_POW_MAX_LEVEL', async () => {
    const u = await register(t);
    for (let i = 0; i < 12; i++) {
      await login(t, u.email, 'wrong password again', i >= 3 ? await solvedCaptcha(t, 0, { email: u.email }) : {});
    }
    expect(await levelOf(u.email)).toEqual({ level: 6, max_counter: 4400 * 32 });
  });
});
