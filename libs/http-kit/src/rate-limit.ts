import { AsyncLocalStorage } from 'node:async_hooks';
import type { Redis } from 'ioredis';
import { errors } from './errors/app-error.ts';

// One round trip: count the hits (ARGV[2], default 1) and read the window's remaining time atomically.
const HIT = `
local by = tonumber(ARGV[2] or '1')
local n = redis.call('INCRBY', KEYS[1], by)
if n == by then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]); ttl = tonumber(ARGV[1]) end
return {n, ttl}`;

/** How often hits counted in this process are added to the shared counters (`hitBatched`). */
const SYNC_MS = 100;
/** Windows held in memory at most; beyond, the expired ones go (and all of them if that is not enough). */
const MAX_LOCAL_WINDOWS = 100_000;

interface LocalWindow {
  /** Hits in this window as far as this process knows: the shared count at the last sync plus its own since. */
  count: number;
  /** Own hits not yet added to the shared counter. */
  pending: number;
  /** When the shared window ends (epoch ms). */
  resetAt: number;
  windowS: number;
}

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
  private readonly windows = new Map<string, LocalWindow>();
  /** Keys with hits not yet synced. */
  private readonly dirty = new Set<string>();
  private syncTimer: NodeJS.Timeout | null = null;
  private syncing: Promise<void> | null = null;

  constructor(private readonly redis: Redis) {}

  async hit(bucket: string, id: string, limit: number, windowS: number): Promise<RateLimitResult> {
    const key = `rl:${bucket}:${id}`;
    const [count, ttl] = (await this.redis.eval(HIT, 1, key, String(windowS * 1000), '1')) as [number, number];
    return this.applied(bucket, limit, windowS, count, ttl);
  }

  /**
   * The same fixed window as `hit`, without a Redis round trip on every request: the first hit of
   * a window in this process is counted in Redis at once (it learns the shared count and when the
   * window ends); later ones are counted here and added to the shared counter in one pipelined
   * call every 100 ms, which also brings back what the other processes counted. A process sees
   * its own hits exactly; another process's hits reach it within one sync, so a client spread
   * over several processes may get up to 100 ms worth of requests beyond its limit. For the
   * global per-address and per-actor limits, counted on every request; the named limits of
   * sensitive routes (`consume`) stay exact.
   */
  async hitBatched(bucket: string, id: string, limit: number, windowS: number): Promise<RateLimitResult> {
    const key = `rl:${bucket}:${id}`;
    // The window lives in Redis (its TTL): elapsed time on a monotonic clock, not the injected one.
    const now = performance.now();
    const w = this.windows.get(key);
    if (!w || now >= w.resetAt || w.windowS !== windowS) {
      const [count, ttl] = (await this.redis.eval(HIT, 1, key, String(windowS * 1000), '1')) as [number, number];
      const known = this.windows.get(key);
      // A sync or another first hit may have answered meanwhile: keep the larger count.
      if (known && known.resetAt > now && known.windowS === windowS) known.count = Math.max(known.count + 1, count);
      else {
        if (this.windows.size >= MAX_LOCAL_WINDOWS) this.prune(now);
        this.windows.set(key, { count, pending: 0, resetAt: now + ttl, windowS });
      }
      return this.applied(bucket, limit, windowS, this.windows.get(key)!.count, ttl);
    }
    w.count++;
    w.pending++;
    this.dirty.add(key);
    this.scheduleSync();
    return this.applied(bucket, limit, windowS, w.count, w.resetAt - now);
  }

  /** Throws 429 `rate_limited` with `Retry-After` when over the limit. */
  async consume(bucket: string, id: string, limit: number, windowS: number): Promise<RateLimitResult> {
    const r = await this.hit(bucket, id, limit, windowS);
    if (!r.allowed) throw errors.rateLimited(r.retryAfterS, bucket);
    return r;
  }

  async reset(bucket: string, id: string): Promise<void> {
    this.windows.delete(`rl:${bucket}:${id}`);
    await this.redis.del(`rl:${bucket}:${id}`);
  }

  /** Adds the hits counted here since the last sync to the shared counters; learns theirs. */
  async sync(): Promise<void> {
    this.syncTimer = null;
    if (this.syncing) {
      // One sync at a time: what came meanwhile goes with the next.
      this.scheduleSync();
      return this.syncing;
    }
    const batch: Array<[string, LocalWindow, number]> = [];
    for (const key of this.dirty) {
      const w = this.windows.get(key);
      if (w && w.pending > 0) {
        batch.push([key, w, w.pending]);
        w.pending = 0;
      }
    }
    this.dirty.clear();
    if (!batch.length) return;
    const pipeline = this.redis.pipeline();
    for (const [key, w, n] of batch) pipeline.eval(HIT, 1, key, String(w.windowS * 1000), String(n));
    this.syncing = (async () => {
      try {
        const results = (await pipeline.exec()) ?? [];
        const now = performance.now();
        batch.forEach(([key, w, n], i) => {
          const [err, value] = results[i] ?? [new Error('no answer'), null];
          if (err || !Array.isArray(value)) {
            w.pending += n;
            this.dirty.add(key);
            return;
          }
          const [count, ttl] = value as [number, number];
          // The shared count already holds this batch; add what came here since it was taken.
          w.count = Math.max(w.count, count + w.pending);
          w.resetAt = now + ttl;
        });
      } catch {
        // Redis unreachable: the hits stay pending and go with the next sync.
        for (const [key, w, n] of batch) {
          w.pending += n;
          this.dirty.add(key);
        }
      } finally {
        this.syncing = null;
      }
      if (this.dirty.size) this.scheduleSync();
    })();
    return this.syncing;
  }

  /** Stops the sync timer (the server is closing); hits not yet synced are sent first. */
  async close(): Promise<void> {
    if (this.syncTimer) clearTimeout(this.syncTimer);
    this.syncTimer = null;
    await this.sync().catch(() => {});
  }

  private scheduleSync(): void {
    this.syncTimer ??= setTimeout(() => void this.sync(), SYNC_MS).unref();
  }

  private prune(now: number): void {
    for (const [key, w] of this.windows) if (w.resetAt <= now && w.pending === 0) this.windows.delete(key);
    if (this.windows.size >= MAX_LOCAL_WINDOWS) {
      this.windows.clear();
      this.dirty.clear();
    }
  }

  private applied(bucket: string, limit: number, windowS: number, count: number, ttlMs: number): RateLimitResult {
    const retryAfterS = Math.max(1, Math.ceil(ttlMs / 1000));
    appliedLimits.getStore()?.push({
      policy: POLICY_NAMES[bucket] ?? bucket,
      quota: limit,
      windowS,
      remaining: Math.max(0, limit - count),
      resetS: retryAfterS,
    });
    return { allowed: count <= limit, count, limit, retryAfterS };
  }
}
