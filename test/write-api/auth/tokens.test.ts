import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT, generateKeyPair } from 'jose';
import { writeApi } from '@guest/write-api';
import { signAccessToken, verifyAccessToken, InvalidTokenError } from '@guest/auth';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { expectEnvelope, http } from '../../support/http.ts';
import { register, relaxedLimits } from './support.ts';
import { guardProbeApp } from './guard-probe.ts';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    apps: [writeApi, guardProbeApp],
    // A secret of its own, as production requires; HOST_API_SECRET plays another API's key.
    config: { ...relaxedLimits, JWT_SECRET: 'guest-secret-0123456789-0123456789-abcdef' },
  });
});
afterAll(async () => t?.close());

/** The key of another API of the marketplace (a host API): its tokens must never pass here. */
const HOST_API_SECRET = 'host-api-secret-0123456789-0123456789-abc';

const b64 = (v: object | Buffer) => Buffer.from(v instanceof Buffer ? v : JSON.stringify(v)).toString('base64url');
const me = (token: string) => http(t.url, 'GET', '/v1/auth/sessions', { token });
function validClaims(u: { accountId: string; tokens: { session_id: string } }) {
  const now = Math.floor(Date.now() / 1000);
  return {
    iss: t.config.TOKEN_ISSUER,
    aud: 'guest-api',
    sub: u.accountId,
    sid: u.tokens.session_id,
    iat: now,
    exp: now + 600,
    jti: 'a2b4c6d8-0000-4000-8000-000000000001',
  };
}
function hs256(header: object, payload: object, secret: string): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

describe('access tokens (DESIGN G5b)', () => {
  it('carry iss, aud, sub, sid, iat, exp and jti, signed HS256, and live ACCESS_TOKEN_TTL_S', async () => {
    const u = await register(t);
    const [h, p] = u.tokens.access_token
      .split('.')
      .slice(0, 2)
      .map((s) => JSON.parse(Buffer.from(s, 'base64url').toString()));
    expect(h.alg).toBe('HS256');
    expect(p).toMatchObject({
      iss: t.config.TOKEN_ISSUER,
      aud: 'guest-api',
      sub: u.accountId,
      sid: u.tokens.session_id,
    });
    expect(p.exp - p.iat).toBe(900);
    expect(typeof p.jti).toBe('string');
    // Our own hand-made token with the right secret passes: the checks below fail for their reason only.
    expect((await me(hs256({ alg: 'HS256', typ: 'JWT' }, validClaims(u), t.config.JWT_SECRET))).status).toBe(200);
  });

  it('one access token: no per-app tokens are issued, and the guest token passes every guard', async () => {
    const u = await register(t);
    expect(Object.keys(u.tokens).sort()).toEqual(
      ['access_token', 'expires_in', 'refresh_token', 'session_id', 'token_type'].sort(),
    );
    expect((await me(u.tokens.access_token)).status).toBe(200);
  });

  it("a token of another API is refused by signature, and by audience even with the guest API's key", async () => {
    const u = await register(t);
    const hostToken = hs256({ alg: 'HS256' }, { ...validClaims(u), aud: 'host-api' }, HOST_API_SECRET);
    expect(expectEnvelope(await me(hostToken), 401, 'unauthorized').details.reason).toBe('invalid');
    expectEnvelope(await http(t.url, 'GET', '/v1/_probe/auth/optional', { token: hostToken }), 401, 'unauthorized');
    // The guest audience claim signed with another key: the signature fails.
    expectEnvelope(await me(hs256({ alg: 'HS256' }, validClaims(u), HOST_API_SECRET)), 401, 'unauthorized');
    // Another audience signed with the right key (a leaked key of a shared store): still refused.
    expectEnvelope(
      await me(hs256({ alg: 'HS256' }, { ...validClaims(u), aud: 'host-api' }, t.config.JWT_SECRET)),
      401,
      'unauthorized',
    );
    // The wave-1 audiences are gone too.
    for (const aud of ['guest-write-api', 'guest-read-api', 'guest-socket']) {
      expectEnvelope(
        await me(hs256({ alg: 'HS256' }, { ...validClaims(u), aud }, t.config.JWT_SECRET)),
        401,
        'unauthorized',
      );
    }
  });

  it('alg none is 401', async () => {
    const u = await register(t);
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(validClaims(u))}.`;
    expectEnvelope(await me(none), 401, 'unauthorized');
  });

  it('RS256 is 401, whether HMAC-signed with the secret as key or truly RSA-signed', async () => {
    const u = await register(t);
    const confused = hs256({ alg: 'RS256', typ: 'JWT' }, validClaims(u), t.config.JWT_SECRET);
    expectEnvelope(await me(confused), 401, 'unauthorized');
    const { privateKey } = await generateKeyPair('RS256');
    const rsa = await new SignJWT({ sid: u.tokens.session_id })
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer(t.config.TOKEN_ISSUER)
      .setAudience('guest-api')
      .setSubject(u.accountId)
      .setIssuedAt()
      .setExpirationTime('10m')
      .setJti('x')
      .sign(privateKey);
    expectEnvelope(await me(rsa), 401, 'unauthorized');
  });

  it('an expired token is 401 with reason expired', async () => {
    const u = await register(t);
    const old = await signAccessToken(
      t.config,
      { accountId: u.accountId, sessionId: u.tokens.session_id },
      new Date(t.runtime.clock.now().getTime() - 16 * 60_000),
    );
    expect(expectEnvelope(await me(old), 401, 'unauthorized').details.reason).toBe('expired');
  });

  // Issue 14 point 7 (DESIGN G5b): a well-signed token is still refused when it comes from the
  // future or claims a life longer than the server ever gives (ACCESS_TOKEN_MAX_LIFETIME_S, 900 s).
  it('iat in the future beyond the clock skew is 401; within the skew it passes', async () => {
    const u = await register(t);
    const now = Math.floor(Date.now() / 1000);
    const at = (iat: number) =>
      me(hs256({ alg: 'HS256' }, { ...validClaims(u), iat, exp: iat + 600 }, t.config.JWT_SECRET));
    expect(t.config.TOKEN_CLOCK_SKEW_S).toBe(30);
    expect(expectEnvelope(await at(now + 120), 401, 'unauthorized').details.reason).toBe('invalid');
    expectEnvelope(await at(now + 3600 * 24 * 365), 401, 'unauthorized');
    expect((await at(now + 10)).status).toBe(200);
  });

  it('a lifetime (exp - iat) over the configured maximum is 401, even when still young', async () => {
    const u = await register(t);
    const now = Math.floor(Date.now() / 1000);
    const lasting = (iat: number, exp: number) =>
      me(hs256({ alg: 'HS256' }, { ...validClaims(u), iat, exp }, t.config.JWT_SECRET));
    expect(t.config.ACCESS_TOKEN_MAX_LIFETIME_S).toBe(900);
    expectEnvelope(await lasting(now, now + 10 * 365 * 86_400), 401, 'unauthorized');
    expectEnvelope(await lasting(now - 60, now + 901 - 60), 401, 'unauthorized');
    expect((await lasting(now - 60, now + 900 - 60)).status).toBe(200);
  });

  it('a tampered payload, a wrong issuer, a wrong secret or another account are 401', async () => {
    const u = await register(t);
    const other = await register(t);
    const [h, , s] = u.tokens.access_token.split('.');
    const tampered = `${h}.${b64({ ...validClaims(u), sub: other.accountId })}.${s}`;
    expectEnvelope(await me(tampered), 401, 'unauthorized');
    expectEnvelope(
      await me(hs256({ alg: 'HS256' }, { ...validClaims(u), iss: 'someone-else' }, t.config.JWT_SECRET)),
      401,
      'unauthorized',
    );
    expectEnvelope(await me(hs256({ alg: 'HS256' }, validClaims(u), HOST_API_SECRET)), 401, 'unauthorized');
    // Valid signature, but the session belongs to someone else.
    const mixed = hs256({ alg: 'HS256' }, { ...validClaims(u), sub: other.accountId }, t.config.JWT_SECRET);
    expectEnvelope(await me(mixed), 401, 'unauthorized');
  });

  it('no header, another scheme or garbage is 401 with WWW-Authenticate: Bearer', async () => {
    const none = await http(t.url, 'GET', '/v1/auth/sessions');
    expect(expectEnvelope(none, 401, 'unauthorized').details.reason).toBe('missing');
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expectEnvelope(
      await http(t.url, 'GET', '/v1/auth/sessions', { headers: { authorization: 'Basic YTpi' } }),
      401,
      'unauthorized',
    );
    expectEnvelope(await me('not.a.jwt'), 401, 'unauthorized');
  });

  it('verifyAccessToken checks the key, audience and expiry for other processes', async () => {
    const u = await register(t);
    const claims = await verifyAccessToken(t.config, u.tokens.access_token, t.runtime.clock.now());
    expect(claims).toMatchObject({ accountId: u.accountId, sessionId: u.tokens.session_id });
    await expect(
      verifyAccessToken({ ...t.config, JWT_SECRET: HOST_API_SECRET }, u.tokens.access_token, t.runtime.clock.now()),
    ).rejects.toBeInstanceOf(InvalidTokenError);
  });
});

describe('guard for other routes', () => {
  it('optionalAuth: anonymous without a header, the actor with one, 401 with a bad one', async () => {
    const u = await register(t);
    const anon = await http(t.url, 'GET', '/v1/_probe/auth/optional');
    expect(anon.body).toEqual({ actor_id: null, auth: null });
    const signed = await http(t.url, 'GET', '/v1/_probe/auth/optional', { token: u.tokens.access_token });
    expect(signed.body.actor_id).toBe(u.accountId);
    expect(signed.body.auth).toMatchObject({
      accountId: u.accountId,
      sessionId: u.tokens.session_id,
      emailConfirmed: false,
      status: 'active',
      restrictions: [],
    });
    expectEnvelope(await http(t.url, 'GET', '/v1/_probe/auth/optional', { token: 'garbage' }), 401, 'unauthorized');
  });

  it('requireAuth({confirmed}) is 403 email_not_confirmed until confirmation', async () => {
    const u = await register(t);
    expectEnvelope(
      await http(t.url, 'GET', '/v1/_probe/auth/confirmed', { token: u.tokens.access_token }),
      403,
      'email_not_confirmed',
    );
    await t.sql.query('update accounts set email_confirmed_at = now() where id = $1', [u.accountId]);
    expect((await http(t.url, 'GET', '/v1/_probe/auth/confirmed', { token: u.tokens.access_token })).status).toBe(200);
  });

  it('requireAuth({restrictions}) is 403 account_restricted only while that restriction is active', async () => {
    const u = await register(t);
    const call = () => http(t.url, 'GET', '/v1/_probe/auth/booking', { token: u.tokens.access_token });
    expect((await call()).status).toBe(200);
    await t.sql.query(`insert into account_restrictions (account_id, kind, reason) values ($1, 'messaging', 'spam')`, [
      u.accountId,
    ]);
    expect((await call()).status).toBe(200);
    await t.sql.query(
      `insert into account_restrictions (account_id, kind, until) values ($1, 'booking', now() - interval '1 minute')`,
      [u.accountId],
    );
    expect((await call()).status).toBe(200);
    await t.sql.query(
      `insert into account_restrictions (account_id, kind, reason) values ($1, 'booking', 'chargebacks')`,
      [u.accountId],
    );
    expect(expectEnvelope(await call(), 403, 'account_restricted').details.restrictions).toEqual(['booking']);
    await t.sql.query(`update account_restrictions set lifted_at = now() where account_id = $1`, [u.accountId]);
    expect((await call()).status).toBe(200);
  });
});
