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
    return { allowed: count <= limit, count, limit, retryAfterS: Math.max(1, Math.ceil(ttl / 1000)) };
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
