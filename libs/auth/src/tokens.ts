import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { Config } from '@guest/config';

/**
 * DESIGN G5b: one signing secret per audience, so a token of one API fails signature
 * verification at another (spec 5.5) instead of depending on a permission check.
 */
export const AUDIENCES = ['write', 'read', 'socket'] as const;
export type Audience = (typeof AUDIENCES)[number];

const AUDIENCE_CLAIM: Record<Audience, string> = {
  write: 'guest-write-api',
  read: 'guest-read-api',
  socket: 'guest-socket',
};

type TokenConfig = Pick<
  Config,
  | 'JWT_SECRET_WRITE'
  | 'JWT_SECRET_READ'
  | 'JWT_SECRET_SOCKET'
  | 'TOKEN_ISSUER'
  | 'ACCESS_TOKEN_TTL_S'
  | 'ACCESS_TOKEN_MAX_LIFETIME_S'
  | 'TOKEN_CLOCK_SKEW_S'
>;

export interface AccessClaims {
  accountId: string;
  sessionId: string;
  audience: Audience;
  expiresAt: Date;
}

const keyCache = new Map<string, Uint8Array>();
function keyFor(config: TokenConfig, audience: Audience): Uint8Array {
  const secret =
    audience === 'write'
      ? config.JWT_SECRET_WRITE
      : audience === 'read'
        ? config.JWT_SECRET_READ
        : config.JWT_SECRET_SOCKET;
  let key = keyCache.get(secret);
  if (!key) {
    key = new TextEncoder().encode(secret);
    keyCache.set(secret, key);
  }
  return key;
}

export async function signAccessToken(
  config: TokenConfig,
  audience: Audience,
  claims: { accountId: string; sessionId: string },
  now: Date = new Date(),
): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ sid: claims.sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(config.TOKEN_ISSUER)
    .setAudience(AUDIENCE_CLAIM[audience])
    .setSubject(claims.accountId)
    .setIssuedAt(iat)
    .setExpirationTime(iat + config.ACCESS_TOKEN_TTL_S)
    .setJti(randomUUID())
    .sign(keyFor(config, audience));
}

export class InvalidTokenError extends Error {
  constructor(readonly reason: 'expired' | 'invalid') {
    super(`access token ${reason}`);
    this.name = 'InvalidTokenError';
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Checks signature (HS256 only: `none`, RS256 and every other algorithm are refused before any
 * key is used), issuer, audience and expiry. Does NOT check that the session is still open:
 * `authenticate` does that.
 */
export async function verifyAccessToken(config: TokenConfig, token: string, audience: Audience): Promise<AccessClaims> {
  try {
    const { payload } = await jwtVerify(token, keyFor(config, audience), {
      algorithms: ['HS256'],
      issuer: config.TOKEN_ISSUER,
      audience: AUDIENCE_CLAIM[audience],
      requiredClaims: ['sub', 'sid', 'exp', 'iat', 'jti'],
    });
    // A token from the future, or one that claims to live longer than this server ever issues,
    // was made with a leaked key or by a broken issuer: refused even though the signature holds.
    const iat = payload.iat!;
    if (iat > Date.now() / 1000 + config.TOKEN_CLOCK_SKEW_S) throw new InvalidTokenError('invalid');
    if (payload.exp! - iat > config.ACCESS_TOKEN_MAX_LIFETIME_S) throw new InvalidTokenError('invalid');
    const sid = payload.sid;
    if (typeof payload.sub !== 'string' || !UUID.test(payload.sub) || typeof sid !== 'string' || !UUID.test(sid)) {
      throw new InvalidTokenError('invalid');
    }
    return { accountId: payload.sub, sessionId: sid, audience, expiresAt: new Date(payload.exp! * 1000) };
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
