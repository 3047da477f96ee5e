import { AsyncLocalStorage } from 'node:async_hooks';
import type { Redis } from 'ioredis';
import { errors } from './errors/app-error.ts';

// One round trip: count the hit and read the window's remaining time atomically.
const HIT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {n, ttl}`;

export interface RateLimitResult {
  allowed: boolean;
  count: number;
  limit: number;
  retryAfterS: number;
}

/** A limit one request was counted against, for its `RateLimit` / `RateLimit-Policy` headers. */
export interface AppliedLimit {
  policy: string;
  quota: number;
  windowS: number;
  remaining: number;
  resetS: number;
}

/**
 * The limits counted for the request being handled. Services take the limiter without the
 * request (`consume('login', …)` deep in sign-in), so the request's list travels with its
 * asynchronous context instead of through every signature.
 */
export const appliedLimits = new AsyncLocalStorage<AppliedLimit[]>();

/** The policy names of the IETF draft's headers: the global buckets read better with their scope. */
const POLICY_NAMES: Record<string, string> = { address: 'per-address', actor: 'per-actor' };

/**
 * IETF draft-ietf-httpapi-ratelimit-headers: the tightest limit that applied (fewest requests
 * left; on a tie, the one that resets last), as `RateLimit-Policy: "p";q=600;w=60` and
 * `RateLimit: "p";r=598;t=42`. Null when no limit was counted.
 */
export function rateLimitHeaders(limits: AppliedLimit[]): Record<'ratelimit' | 'ratelimit-policy', string> | null {
  let tightest: AppliedLimit | undefined;
  for (const l of limits) {
    if (
      !tightest ||
      l.remaining < tightest.remaining ||
      (l.remaining === tightest.remaining && l.resetS > tightest.resetS)
    )
      tightest = l;
  }
  if (!tightest) return null;
  const name = `"${tightest.policy}"`;
  return {
    'ratelimit-policy': `${name};q=${tightest.quota};w=${tightest.windowS}`,
    ratelimit: `${name};r=${tightest.remaining};t=${tightest.resetS}`,
  };
}

/**
 * Fixed-window counters in Redis, shared by every process. While Redis is unreachable a hit
 * fails at once (the client has no offline queue, see `@guest/runtime`): the global per-address
 * and per-actor limits then let the request through (and log it), so an outage of the cache does
 * not take the whole API down; a named limit taken with `consume` guards a sensitive route
 * (login, email availability, captcha), whose request then answers 503 `unavailable`.
 */
export class RateLimiter {
  constructor(private readonly redis: Redis) {}

  async hit(bucket: string, id: string, limit: number, windowS: number): Promise<RateLimitResult> {
    const key = `rl:${bucket}:${id}`;
    const [count, ttl] = (await this.redis.eval(HIT, 1, key, String(windowS * 1000))) as [number, number];
    const retryAfterS = Math.max(1, Math.ceil(ttl / 1000));
    appliedLimits.getStore()?.push({
      policy: POLICY_NAMES[bucket] ?? bucket,
      quota: limit,
      windowS,
      remaining: Math.max(0, limit - count),
      resetS: retryAfterS,
    });
    return { allowed: count <= limit, count, limit, retryAfterS };
  }

  /** Throws 429 `rate_limited` with `Retry-After` when over the limit. */
  async consume(bucket: string, id: string, limit: number, windowS: number): Promise<RateLimitResult> {
    const r = await this.hit(bucket, id, limit, windowS);
    if (!r.allowed) throw errors.rateLimited(r.retryAfterS, bucket);
    return r;
  }

  async reset(bucket: string, id: string): Promise<void> {
    await this.redis.del(`rl:${bucket}:${id}`);
  }
}
