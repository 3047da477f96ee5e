import { describe, expect, it } from 'vitest';
import { InvalidTokenError, signAccessToken, verifyAccessToken } from './tokens.ts';

const config = {
  JWT_SECRET: 'unit-test secret of the guest audience, long enough',
  TOKEN_ISSUER: 'guest-api',
  ACCESS_TOKEN_TTL_S: 60,
  ACCESS_TOKEN_MAX_LIFETIME_S: 900,
  TOKEN_CLOCK_SKEW_S: 30,
};
const ids = { accountId: '2a55f3cf-4cb4-42cc-aad2-3e5251fa06fb', sessionId: '7d0c6f1e-2b0a-4c55-9b43-1f0a4e3c2d11' };

async function reason(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'accepted';
  } catch (err) {
    return err instanceof InvalidTokenError ? err.reason : String(err);
  }
}

const at = (iso: string) => new Date(iso);
const NOW = at('2026-11-23T12:00:00Z');

describe('access tokens checked once are remembered, never beyond what a fresh check accepts', () => {
  it('a remembered token still expires on time', async () => {
    const token = await signAccessToken(config, ids, NOW);
    expect(await verifyAccessToken(config, token, NOW)).toMatchObject(ids);
    expect(await verifyAccessToken(config, token, at('2026-11-23T12:00:59Z'))).toMatchObject(ids);
    expect(await reason(verifyAccessToken(config, token, at('2026-11-23T12:01:00Z')))).toBe('expired');
  });

  it('a fresh check expires it at the same instant, by the clock it is given', async () => {
    const token = await signAccessToken(config, ids, NOW);
    expect(await reason(verifyAccessToken(config, token, at('2026-11-23T12:01:00Z')))).toBe('expired');
    expect(await verifyAccessToken(config, token, at('2026-11-23T12:00:59Z'))).toMatchObject(ids);
  });

  it('refuses a token issued later than the allowed skew ahead of the clock', async () => {
    const token = await signAccessToken(config, ids, at('2026-11-23T12:00:31Z'));
    expect(await reason(verifyAccessToken(config, token, NOW))).toBe('invalid');
    const skewed = await signAccessToken(config, ids, at('2026-11-23T12:00:30Z'));
    expect(await verifyAccessToken(config, skewed, NOW)).toMatchObject(ids);
  });

  it('a token remembered under one secret or issuer is checked afresh under another', async () => {
    const token = await signAccessToken(config, ids, NOW);
    expect(await verifyAccessToken(config, token, NOW)).toMatchObject(ids);
    expect(
      await reason(verifyAccessToken({ ...config, JWT_SECRET: 'another secret, rotated meanwhile' }, token, NOW)),
    ).toBe('invalid');
    expect(await reason(verifyAccessToken({ ...config, TOKEN_ISSUER: 'host-api' }, token, NOW))).toBe('invalid');
    expect(await reason(verifyAccessToken({ ...config, ACCESS_TOKEN_MAX_LIFETIME_S: 30 }, token, NOW))).toBe('invalid');
  });

  it('a token differing from a remembered one in any character is checked afresh', async () => {
    const token = await signAccessToken(config, ids, NOW);
    await verifyAccessToken(config, token, NOW);
    // A character inside the signature (the last one may carry only padding bits).
    const i = token.length - 10;
    const changed = token.slice(0, i) + (token[i] === 'A' ? 'B' : 'A') + token.slice(i + 1);
    expect(await reason(verifyAccessToken(config, changed, NOW))).toBe('invalid');
  });
});
