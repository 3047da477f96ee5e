import { useRef, useState } from 'preact/hooks';
import { api, errorCode, type Schemas } from '../api.ts';
import { useT } from '../i18n.ts';
import { solvePow } from './pow.ts';

type Challenge = Schemas['CaptchaResponse'];

/** What login, registration, password-reset and deletion requests carry when a captcha is demanded. */
export interface CaptchaPair {
  captcha_id: string;
  captcha_answer: string;
  captcha_nonce: string;
}

/** The proof of work in a Web Worker; on the page's thread when workers are unavailable. */
function solveOffThread(pow: Challenge['pow']): Promise<string> {
  try {
    const worker = new Worker(new URL('./pow-worker.ts', import.meta.url), { type: 'module' });
    return new Promise((resolve) => {
      worker.onmessage = (e: MessageEvent<{ nonce: string }>) => {
        worker.terminate();
        resolve(e.data.nonce);
      };
      worker.onerror = () => {
        worker.terminate();
        resolve(solvePow(pow.prefix, pow.difficulty_bits));
      };
      worker.postMessage({ prefix: pow.prefix, bits: pow.difficulty_bits });
    });
  } catch {
    return Promise.resolve(solvePow(pow.prefix, pow.difficulty_bits));
  }
}

/** The whether-and-which of a captcha for one form: fetched when the server demands one. */
export function useCaptcha() {
  const [challenge, setChallenge] = useState<Challenge | null>(null);
  const [offset, setOffset] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const nonce = useRef<Promise<string> | null>(null);

  async function load(): Promise<void> {
    setError(null);
    const { data, error: failed } = await api.POST('/v1/auth/captcha');
    if (!data) {
      setChallenge(null);
      setError(errorCode(failed));
      return;
    }
    // The proof of work starts at once, while the guest slides the piece.
    nonce.current = solveOffThread(data.pow);
    setOffset(0);
    setChallenge(data);
  }

  /** The answer for the request body, or empty strings when no captcha is shown. */
  async function pair(): Promise<CaptchaPair> {
    if (!challenge || !nonce.current) return { captcha_id: '', captcha_answer: '', captcha_nonce: '' };
    return { captcha_id: challenge.captcha_id, captcha_answer: String(offset), captcha_nonce: await nonce.current };
  }

  return { challenge, offset, setOffset, error, load, pair };
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
      <button type="button" class="link" onClick={() => void captcha.load()}>
        {t('account.captcha.new')}
      </button>
    </fieldset>
  );
}
