import type { Redis } from 'ioredis';
import { AppError } from '@guest/http-kit';
import { createCaptcha, verifyCaptcha, type CaptchaBinding, type CaptchaChallenge } from '@guest/auth';
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
  captcha_answer: string;
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
 * Who is asking, as the price of a captcha sees it: the address (an IPv6 /64), and where known
 * the email the request is about, the signed-in account and its session.
 */
export interface Suspect {
  address: string;
  emailKey: string | null;
  accountId: string | null;
  sessionId: string | null;
}

/** This request's own counts, taken before the captcha is checked: not failures before it. */
export type Counted = Partial<Record<Signal, number>>;

/**
 * The level of the proof of work (issue 32 point 2): 1 when a captcha is first demanded, one more
 * for each failure of the account or of the address past the threshold that demands it, up to
 * CAPTCHA_POW_MAX_LEVEL; each level doubles the expected work. Failures are the signals that
 * demand a captcha: failed logins of the email and of the address, registrations and reset
 * requests from the address, deletion requests of the account. One Redis round trip.
 */
export async function powLevel({ redis, config }: CaptchaDeps, who: Suspect, counted: Counted = {}): Promise<number> {
  const watched: Array<[Signal, string | null, number]> = [
    ['login-fail-email', who.emailKey, config.CAPTCHA_AFTER_FAILED_LOGINS_PER_EMAIL],
    ['login-fail-address', who.address, config.CAPTCHA_AFTER_FAILED_LOGINS_PER_ADDRESS],
    ['register-address', who.address, config.CAPTCHA_AFTER_REGISTRATIONS_PER_ADDRESS],
    ['reset-address', who.address, config.CAPTCHA_AFTER_RESET_REQUESTS_PER_ADDRESS],
    ['delete-account', who.accountId, config.CAPTCHA_AFTER_DELETE_REQUESTS_PER_ACCOUNT],
  ];
  const present = watched.filter((w): w is [Signal, string, number] => w[1] !== null);
  const counts = await redis.mget(...present.map(([signal, id]) => key(signal, id)));
  let over = 0;
  present.forEach(([signal, , threshold], i) => {
    const before = Number(counts[i] ?? 0) - (counted[signal] ?? 0);
    over = Math.max(over, before - threshold);
  });
  return Math.min(config.CAPTCHA_POW_MAX_LEVEL, 1 + over);
}

const bindingOf = (who: Suspect): CaptchaBinding => ({
  address: who.address,
  sessionId: who.sessionId,
  emailKey: who.emailKey,
});

const REFUSALS = {
  wrong_answer: 'The captcha answer or its proof of work is wrong, expired or already used; solve a new one.',
  other_client: 'This captcha was fetched by another client, session or for another email; fetch your own.',
  too_easy: 'Failures since this captcha was fetched raised its price; fetch a new one and solve it.',
} as const;

/**
 * A pair that is sent is always checked (and used up); an empty pair passes unless `demanded`.
 * Either failure is 403 `captcha_required` with `details.captcha` naming where to get one (G7b)
 * and `details.reason`: `demanded`, `wrong_answer`, `other_client` (fetched by another address,
 * session or for another email) or `too_easy` (its level is below the one asked now).
 */
export async function checkCaptcha(
  deps: CaptchaDeps,
  demanded: boolean,
  pair: CaptchaPair,
  who: Suspect,
  counted: Counted = {},
): Promise<void> {
  const sent = pair.captcha_id !== '' || pair.captcha_answer !== '' || pair.captcha_nonce !== '';
  if (!sent) {
    if (demanded) {
      throw new AppError('captcha_required', undefined, { captcha: 'POST /v1/auth/captcha', reason: 'demanded' });
    }
    return;
  }
  const verdict = await verifyCaptcha(
    deps.redis,
    pair.captcha_id,
    pair.captcha_answer,
    pair.captcha_nonce,
    deps.config.CAPTCHA_TOLERANCE_PX,
    bindingOf(who),
    await powLevel(deps, who, counted),
  );
  if (verdict !== 'ok') {
    throw new AppError('captcha_required', REFUSALS[verdict], { captcha: 'POST /v1/auth/captcha', reason: verdict });
  }
}

/** A new puzzle for the client, priced at its level, under the address's per-minute limit. */
export async function issueCaptcha(
  deps: Pick<WriteDeps, 'redis' | 'config' | 'rateLimiter'>,
  who: Suspect,
): Promise<CaptchaChallenge> {
  const { config } = deps;
  await deps.rateLimiter.consume('captcha', who.address, config.RATE_LIMIT_CAPTCHA_PER_MIN, 60);
  const level = await powLevel(deps, who);
  return createCaptcha(
    deps.redis,
    config.CAPTCHA_TTL_S,
    { cost: config.CAPTCHA_POW_COST, counters: config.CAPTCHA_POW_COUNTERS, level },
    bindingOf(who),
  );
}
