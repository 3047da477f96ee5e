import type { Redis } from 'ioredis';
import type { Config } from '@guest/config';
import { errors } from '@guest/http-kit';

/**
 * Per-account back-off on failed logins (issue 14 point 3, DESIGN G5d). Keyed by a digest of the
 * email, never by address, so rotating addresses escapes nothing; an email without an account
 * is counted and delayed exactly like one with, so the answers and their timing tell nothing.
 * The instants come from the injected clock (Retry-After is behaviour a test can pin), the
 * record itself lives in Redis for LOGIN_FAILURE_MEMORY_S after the last failure.
 */
type BackoffConfig = Pick<
  Config,
  'LOGIN_BACKOFF_FREE_FAILURES' | 'LOGIN_BACKOFF_BASE_S' | 'LOGIN_BACKOFF_MAX_S' | 'LOGIN_FAILURE_MEMORY_S'
>;

const key = (emailKey: string) => `login-backoff:${emailKey}`;

/** Seconds of back-off after the `failures`-th failure in a row. */
export function backoffAfter(config: BackoffConfig, failures: number): number {
  const over = failures - config.LOGIN_BACKOFF_FREE_FAILURES;
  if (over <= 0) return 0;
  // 2 ** 30 is far past any maximum; capping the exponent keeps the number finite.
  return Math.min(config.LOGIN_BACKOFF_MAX_S, config.LOGIN_BACKOFF_BASE_S * 2 ** Math.min(over - 1, 30));
}

/** Throws 429 `rate_limited` with Retry-After while the email is in back-off. */
export async function assertNotBackedOff(redis: Redis, emailKey: string, now: Date): Promise<void> {
  const until = Number((await redis.hget(key(emailKey), 'until')) ?? 0);
  const waitS = Math.ceil((until - now.getTime()) / 1000);
  if (waitS > 0) throw errors.rateLimited(waitS, 'login-account');
}

/** Counts one failure and starts its back-off; returns the failures in a row and the delay. */
export async function recordFailure(
  redis: Redis,
  config: BackoffConfig,
  emailKey: string,
  now: Date,
): Promise<{ failures: number; backoffS: number }> {
  const k = key(emailKey);
  const res = await redis.multi().hincrby(k, 'failures', 1).expire(k, config.LOGIN_FAILURE_MEMORY_S).exec();
  const [err, count] = res?.[0] ?? [new Error('redis transaction aborted'), null];
  if (err) throw err;
  const failures = Number(count);
  const backoffS = backoffAfter(config, failures);
  if (backoffS > 0) await redis.hset(k, 'until', String(now.getTime() + backoffS * 1000));
  return { failures, backoffS };
}

/** The owner proved the password (or the mailbox, by a reset): the failures are forgiven. */
export async function clearFailures(redis: Redis, emailKey: string): Promise<void> {
  await redis.del(key(emailKey));
}
