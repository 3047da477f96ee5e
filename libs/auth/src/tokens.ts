import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Config } from '@guest/config';

/**
 * DESIGN G5b: one access token for the whole guest API. The write API, the read API and the
 * socket all accept tokens of the guest audience, signed with its one secret (`JWT_SECRET`). Other
 * APIs of the marketplace (a host or an admin API, spec 5.5) have their own audience and key, so
 * their tokens fail signature verification here instead of depending on a permission check.
 *
 * Symmetric (HS256) on purpose: the three apps are ours and deploy with the same secret store;
 * a key pair would only pay off once a party that must not sign tokens has to verify them.
 */
export const GUEST_AUDIENCE = 'guest-api';

type TokenConfig = Pick<
  Config,
  'JWT_SECRET' | 'TOKEN_ISSUER' | 'ACCESS_TOKEN_TTL_S' | 'ACCESS_TOKEN_MAX_LIFETIME_S' | 'TOKEN_CLOCK_SKEW_S'
>;

export interface AccessClaims {
  accountId: string;
  sessionId: string;
  expiresAt: Date;
}

const keyCache = new Map<string, Uint8Array>();
function keyFor(config: TokenConfig): Uint8Array {
  const secret = config.JWT_SECRET;
  let key = keyCache.get(secret);
  if (!key) {
    key = new TextEncoder().encode(secret);
    keyCache.set(secret, key);
  }
  return key;
}

/** The access token of a session: accepted by every app of the guest API, `/v1/ws` included. */
export async function signAccessToken(
  config: TokenConfig,
  claims: { accountId: string; sessionId: string },
  now: Date,
): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ sid: claims.sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(config.TOKEN_ISSUER)
    .setAudience(GUEST_AUDIENCE)
    .setSubject(claims.accountId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + config.ACCESS_TOKEN_TTL_S)
    .setJti(randomUUID())
    .sign(keyFor(config));
}

export class InvalidTokenError extends Error {
  constructor(readonly reason: 'expired' | 'invalid') {
    super(`access token ${reason}`);
    this.name = 'InvalidTokenError';
  }
}

/**
 * Tokens whose signature and claims were checked, by their exact text: a client sends the same
 * access token with every request for its whole life (15 minutes), and the HMAC check through
 * WebCrypto was a tenth of the CPU of a signed-in read (`GET /v1/me`, bench:auth). A hit needs the
 * very same string checked with the same secret and issuer, and expiry is checked again on
 * every use, so nothing is accepted that a fresh check would refuse. Bounded: the oldest go first.
 */
const VERIFIED_MAX = 20_000;
interface Verified {
  claims: AccessClaims;
  secret: string;
  issuer: string;
  maxLifetimeS: number;
}
const verified = new Map<string, Verified>();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Checks signature (HS256 only: `none`, RS256 and every other algorithm are refused before any
 * key is used), issuer, the guest audience and expiry at `now` (the clock the token was signed
 * with). Does NOT check that the session is still open: `authenticate` does that.
 */
export async function verifyAccessToken(config: TokenConfig, token: string, now: Date): Promise<AccessClaims> {
  const known = verified.get(token);
  if (
    known &&
    known.secret === config.JWT_SECRET &&
    known.issuer === config.TOKEN_ISSUER &&
    known.maxLifetimeS === config.ACCESS_TOKEN_MAX_LIFETIME_S
  ) {
    // jose's rule: expired once `exp` is not after now (no clock tolerance).
    if (known.claims.expiresAt.getTime() / 1000 <= Math.floor(now.getTime() / 1000)) {
      verified.delete(token);
      throw new InvalidTokenError('expired');
    }
    return known.claims;
  }
  const claims = await verifyFresh(config, token, now);
  if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
  verified.set(token, {
    claims,
    secret: config.JWT_SECRET,
    issuer: config.TOKEN_ISSUER,
    maxLifetimeS: config.ACCESS_TOKEN_MAX_LIFETIME_S,
  });
  return claims;
}

async function verifyFresh(config: TokenConfig, token: string, now: Date): Promise<AccessClaims> {
  try {
    const { payload } = await jwtVerify(token, keyFor(config), {
      currentDate: now,
      algorithms: ['HS256'],
      issuer: config.TOKEN_ISSUER,
      audience: GUEST_AUDIENCE,
      requiredClaims: ['sub', 'sid', 'exp', 'iat', 'jti'],
    });
    // A token from the future, or one that claims to live longer than this server ever issues,
    // was made with a leaked key or by a broken issuer: refused even though the signature holds.
    const iat = payload.iat!;
    if (iat > now.getTime() / 1000 + config.TOKEN_CLOCK_SKEW_S) throw new InvalidTokenError('invalid');
    if (payload.exp! - iat > config.ACCESS_TOKEN_MAX_LIFETIME_S) throw new InvalidTokenError('invalid');
    const sid = payload.sid;
    if (typeof payload.sub !== 'string' || !UUID.test(payload.sub) || typeof sid !== 'string' || !UUID.test(sid)) {
      throw new InvalidTokenError('invalid');
    }
    return { accountId: payload.sub, sessionId: sid, expiresAt: new Date(payload.exp! * 1000) };
  } catch (err) {
    if (err instanceof InvalidTokenError) throw err;
    if (err instanceof joseErrors.JWTExpired) throw new InvalidTokenError('expired');
    throw new InvalidTokenError('invalid');
  }
}

/** Opaque 256-bit random secret, URL-safe (refresh tokens, emailed tokens, socket tickets). */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/** How opaque tokens are stored: a fast hash is enough for 256 bits of randomness. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
