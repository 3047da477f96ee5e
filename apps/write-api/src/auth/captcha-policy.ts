import type { Redis } from 'ioredis';
import { AppError } from '@guest/http-kit';
import { createCaptcha, verifyCaptcha, type CaptchaChallenge } from '@guest/auth';
import type { WriteDeps } from '../deps.ts';

/**
 * When a captcha is demanded (DESIGN G5d, spec 5.8): counters of suspicious activity in Redis,
 * shared by every process. Each counter lives for its window from its first hit.
 */
export type Signal =
  'login-fail-email' | 'login-fail-address' | 'register-address' | 'reset-address' | 'delete-account';

type CaptchaDeps = Pick<WriteDeps, 'redis' | 'config'>;

/** What a body that can carry a captcha answer holds (`captchaFields` in schemas.ts). */
export interface CaptchaPair {
  captcha_id: string;
  captcha_answer: string | number;
  captcha_nonce: string;
}

const key = (signal: Signal, id: string) => `signal:${signal}:${id}`;

export async function countSignal(redis: Redis, signal: Signal, id: string): Promise<number> {
  return Number((await redis.get(key(signal, id))) ?? 0);
}

/** Counts one more event and returns the count within the window, this event included (atomic). */
export async function hitSignal(redis: Redis, signal: Signal, id: string, windowS: number): Promise<number> {
  const k = key(signal, id);
  const res = await redis.multi().incr(k).expire(k, windowS, 'NX').exec();
  const [err, count] = res?.[0] ?? [new Error('redis transaction aborted'), null];
  if (err) throw err;
  return Number(count);
}

// One less, unless the window is gone (nothing to give back then) or already at zero (cleared and
// counted again meanwhile): a key made here would have no expiry.
const RELEASE = `
local n = tonumber(redis.call('GET', KEYS[1]) or '0')
if n > 0 then return redis.call('DECR', KEYS[1]) end
return 0`;

/**
 * Gives back a count taken with `hitSignal` for an attempt that turned out not to be a failure
 * (a right password, a refused captcha, a back-off): counting before checking without counting
 * what was not a failed guess.
 */
export async function releaseSignal(redis: Redis, signal: Signal, id: string): Promise<void> {
  await redis.eval(RELEASE, 1, key(signal, id));
}

export async function clearSignal(redis: Redis, signal: Signal, id: string): Promise<void> {
  await redis.del(key(signal, id));
}

/** The address tripped the failed-login threshold: it looks like a robot everywhere. */
export async function addressLooksAutomated({ redis, config }: CaptchaDeps, address: string): Promise<boolean> {
  return (await countSignal(redis, 'login-fail-address', address)) >= config.CAPTCHA_AFTER_FAILED_LOGINS_PER_ADDRESS;
}

/**
 * A pair that is sent is always checked (and used up); an empty pair passes unless `demanded`.
 * Either failure is 403 `captcha_required` with `details.captcha` naming where to get one (G7b).
 */
export async function checkCaptcha(
  { redis, config }: CaptchaDeps,
  demanded: boolean,
  pair: CaptchaPair,
): Promise<void> {
  const sent = pair.captcha_id !== '' || pair.captcha_answer !== '' || pair.captcha_nonce !== '';
  if (!sent) {
    if (demanded) {
      throw new AppError('captcha_required', undefined, { captcha: 'POST /v1/auth/captcha', reason: 'demanded' });
    }
    return;
  }
  const ok = await verifyCaptcha(
    redis,
    pair.captcha_id,
    pair.captcha_answer,
    pair.captcha_nonce,
    config.CAPTCHA_TOLERANCE_PX,
  );
  if (!ok) {
    throw new AppError(
      'captcha_required',
      'The captcha answer or its proof of work is wrong, expired or already used; solve a new one.',
      {
        captcha: 'POST /v1/auth/captcha',
        reason: 'wrong_answer',
      },
    );
  }
}

/** A new puzzle for the address, under its per-minute limit. */
export async function issueCaptcha(
  { redis, config, rateLimiter }: Pick<WriteDeps, 'redis' | 'config' | 'rateLimiter'>,
  address: string,
): Promise<CaptchaChallenge> {
  await rateLimiter.consume('captcha', address, config.RATE_LIMIT_CAPTCHA_PER_MIN, 60);
  return createCaptcha(redis, config.CAPTCHA_TTL_S, config.CAPTCHA_POW_BITS);
}
