import { useRef, useState } from 'preact/hooks';
import { solveChallenge, solveChallengeWorkers, type Challenge as PowChallenge } from 'altcha-lib';
import { api, errorCode, type Schemas } from '../api.ts';
import { useT } from '../i18n.ts';
import { deriveKey } from './pow.ts';

type Challenge = Schemas['CaptchaResponse'];

/** What login, registration, password-reset and deletion requests carry when a captcha is demanded. */
export interface CaptchaPair {
  captcha_id: string;
  captcha_answer: string;
  captcha_nonce: string;
}

/** Long enough for the highest level on a slow phone; a challenge expires before anyway. */
const POW_TIMEOUT_MS = 10 * 60_000;

/**
 * The proof of work (issue 32 point 2): altcha-lib's solver spread over one Web Worker per core
 * (a phone has 4 to 8), each trying its own counters, so the person waits a fraction of the
 * CPU time a script pays; on the page's thread when workers are unavailable.
 */
async function solvePow(pow: Challenge['pow']): Promise<string> {
  const challenge: PowChallenge = {
    parameters: {
      algorithm: pow.algorithm,
      nonce: pow.nonce,
      salt: pow.salt,
      cost: pow.cost,
      keyLength: pow.key_length,
      keyPrefix: pow.key_prefix,
    },
  };
  try {
    const solution = await solveChallengeWorkers({
      challenge,
      concurrency: Math.min(8, Math.max(1, navigator.hardwareConcurrency || 2)),
      createWorker: () => new Worker(new URL('./pow-worker.ts', import.meta.url), { type: 'module' }),
      timeout: POW_TIMEOUT_MS,
    });
    if (solution) return String(solution.counter);
  } catch {
    // No workers here (or one failed): the page's own thread does it.
  }
  const solution = await solveChallenge({ challenge, deriveKey, timeout: POW_TIMEOUT_MS });
  return solution ? String(solution.counter) : '';
}

/** The whether-and-which of a captcha for one form: fetched when the server demands one. */
export function useCaptcha() {
  const [challenge, setChallenge] = useState<Challenge | null>(null);
  const [offset, setOffset] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const nonce = useRef<Promise<string> | null>(null);
  const forEmail = useRef<string | undefined>(undefined);

  /**
   * A new challenge, for the email of the form when it has one: its price follows that email's
   * failures, and it answers only for it (a signed-in page's token binds it to the session).
   */
  async function load(email?: string): Promise<void> {
    forEmail.current = email;
    setError(null);
    const { data, error: failed } = await api.POST('/v1/auth/captcha', { body: email ? { email } : {} });
    if (!data) {
      setChallenge(null);
      setError(errorCode(failed));
      return;
    }
    // The proof of work starts at once, while the guest slides the piece.
    nonce.current = solvePow(data.pow);
    setOffset(0);
    setChallenge(data);
  }

  /** The answer for the request body, or empty strings when no captcha is shown. */
  async function pair(): Promise<CaptchaPair> {
    if (!challenge || !nonce.current) return { captcha_id: '', captcha_answer: '', captcha_nonce: '' };
    return { captcha_id: challenge.captcha_id, captcha_answer: String(offset), captcha_nonce: await nonce.current };
  }

  /** Another challenge for the same email (the person asked for a new picture). */
  const reload = () => load(forEmail.current);

  return { challenge, offset, setOffset, error, load, reload, pair };
}

export type CaptchaState = ReturnType<typeof useCaptcha>;

/**
 * The slider puzzle: the picture with its gaps, the piece in a strip below it, moved sideways by a
 * range control (mouse, touch or arrow keys) until it stands under the gap with its outline.
 */
export function CaptchaView({ captcha, retried }: { captcha: CaptchaState; retried: boolean }) {
  const t = useT();
  const c = captcha.challenge;
  if (!c) return null;
  const max = c.width - c.piece_size;
  return (
    <fieldset class="captcha" aria-describedby="captcha-help">
      <legend>{t('account.captcha.title')}</legend>
      <p id="captcha-help" class="hint">
        {t('account.captcha.help')}
      </p>
      {retried && (
        <p class="field-error" role="alert">
          {t('account.captcha.wrong')}
        </p>
      )}
      <div class="captcha-board" style={{ width: `${c.width}px` }}>
        <img src={c.background} width={c.width} height={c.height} alt={t('account.captcha.picture')} />
        <div class="captcha-strip" style={{ height: `${c.piece_size}px` }}>
          <img
            class="captcha-piece"
            src={c.piece}
            width={c.piece_size}
            height={c.piece_size}
            alt={t('account.captcha.piece')}
            style={{ left: `${captcha.offset}px` }}
          />
        </div>
      </div>
      <label for="captcha-offset" class="visually-hidden">
        {t('account.captcha.slider')}
      </label>
      <input
        id="captcha-offset"
        type="range"
        min={0}
        max={max}
        step={1}
        value={captcha.offset}
        style={{ width: `${c.width}px` }}
        aria-valuetext={t('account.captcha.position', { x: captcha.offset })}
        onInput={(e) => captcha.setOffset(Number(e.currentTarget.value))}
      />
      <button type="button" class="link" onClick={() => void captcha.reload()}>
        {t('account.captcha.new')}
      </button>
    </fieldset>
  );
}
