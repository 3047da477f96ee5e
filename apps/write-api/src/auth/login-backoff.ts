import type { Redis } from 'ioredis';
import type { Config } from '@guest/config';
import { errors } from '@guest/http-kit';

/**
 * Per-account back-off on failed logins (issue 14 point 3, DESIGN G5d). Keyed by a digest of the
 * email, never by address, so rotating addresses escapes nothing; an email without an account
 * is counted and delayed exactly like one with, so the answers and their timing tell nothing.
 * The instants come from the injected clock (Retry-After is behaviour a test can pin), the
 * record itself lives in Redis for LOGIN_FAILURE_MEMORY_S after the last attempt.
 *
 * Counting before checking (issue 32 point 1, DESIGN section 7): an attempt takes its place in
 * the count, and starts the back-off that follows it, in one Redis script before its password is
 * looked at; the right password then clears the record. Attempts released together are so
 * counted one by one like attempts sent one after another, and the count goes on from one burst
 * to the next: after the free failures one attempt per back-off, whatever the concurrency.
 */
type BackoffConfig = Pick<
  Config,
  'LOGIN_BACKOFF_FREE_FAILURES' | 'LOGIN_BACKOFF_BASE_S' | 'LOGIN_BACKOFF_MAX_S' | 'LOGIN_FAILURE_MEMORY_S'
>;

const key = (emailKey: string) => `login-backoff:${emailKey}`;

/**
 * KEYS[1] the email's record; ARGV now (ms), free failures, base (s), maximum (s), memory (s).
 * In back-off: {0, until}. Else the attempt is counted as a failure in a row, the back-off after
 * that many failures starts now (base doubling per failure past the free ones, up to the
 * maximum; 2^30 is past any maximum and keeps the number finite): {1, failures, back-off}.
 */
const RESERVE = `
local now = tonumber(ARGV[1])
local untilMs = tonumber(redis.call('HGET', KEYS[1], 'until') or '0')
if untilMs > now then return {0, untilMs} end
local failures = redis.call('HINCRBY', KEYS[1], 'failures', 1)
local over = failures - tonumber(ARGV[2])
local backoff = 0
if over > 0 then backoff = math.min(tonumber(ARGV[4]), tonumber(ARGV[3]) * 2 ^ math.min(over - 1, 30)) end
if backoff > 0 then redis.call('HSET', KEYS[1], 'until', string.format('%.0f', now + backoff * 1000)) end
redis.call('EXPIRE', KEYS[1], ARGV[5])
return {1, failures, backoff}`;

const refused = (untilMs: number, now: Date) =>
  errors.rateLimited(Math.max(1, Math.ceil((untilMs - now.getTime()) / 1000)), 'login-account');

/**
 * Throws 429 `rate_limited` with Retry-After while the email is in back-off: a cheap first look,
 * so that a guess in back-off costs no captcha and no count. `reserveAttempt` decides.
 */
export async function assertNotBackedOff(redis: Redis, emailKey: string, now: Date): Promise<void> {
  const until = Number((await redis.hget(key(emailKey), 'until')) ?? 0);
  if (until > now.getTime()) throw refused(until, now);
}

/**
 * Takes one attempt's place before its password is checked: throws 429 `rate_limited` with
 * Retry-After while the email is in back-off; else counts the attempt as a failure, starts the
 * back-off that follows it and returns the failures in a row, this one included. A right
 * password undoes it with `clearFailures`.
 */
export async function reserveAttempt(
  redis: Redis,
  config: BackoffConfig,
  emailKey: string,
  now: Date,
): Promise<{ failures: number; backoffS: number }> {
  const [allowed, a, b] = (await redis.eval(
    RESERVE,
    1,
    key(emailKey),
    String(now.getTime()),
    String(config.LOGIN_BACKOFF_FREE_FAILURES),
    String(config.LOGIN_BACKOFF_BASE_S),
    String(config.LOGIN_BACKOFF_MAX_S),
    String(config.LOGIN_FAILURE_MEMORY_S),
  )) as [number, number, number?];
  if (!allowed) throw refused(a, now);
  return { failures: a, backoffS: b ?? 0 };
}

/** The owner proved the password (or the mailbox, by a reset): the failures are forgiven. */
export async function clearFailures(redis: Redis, emailKey: string): Promise<void> {
  await redis.del(key(emailKey));
}
