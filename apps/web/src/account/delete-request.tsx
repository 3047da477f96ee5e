import { useState } from 'preact/hooks';
import { api, errorCode } from '../api.ts';
import { useT } from '../i18n.ts';
import type { RouteProps } from '../router.ts';
import { ErrorNote } from '../ui/notice.tsx';
import { CaptchaView, useCaptcha } from './captcha.tsx';
import { Done } from './forms.tsx';

/**
 * Account deletion, step one (`POST /v1/auth/delete-request`): the API mails a link
 * (`/account/delete-confirm?token=`) that confirms it. The puzzle only when the API demands it.
 */
export function DeleteRequest(_: RouteProps) {
  const t = useT();
  const captcha = useCaptcha();
  const [understood, setUnderstood] = useState(false);
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [wrong, setWrong] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const { response, error: failed } = await api.POST('/v1/auth/delete-request', { body: await captcha.pair() });
    setBusy(false);
    if (response.status === 202) {
      setSent(true);
      return;
    }
    const code = errorCode(failed);
    if (code === 'captcha_required') {
      setWrong(Boolean(captcha.challenge));
      await captcha.load();
    } else setError(code);
  }

  return (
    <section class="panel narrow account">
      <h1>{t('profile.delete_account')}</h1>
      {sent ? (
        <Done text={t('account.delete.sent')} />
      ) : (
        <form onSubmit={(e) => void submit(e)}>
          <p>{t('account.delete.explain')}</p>
          <div class="acct-check">
            <input
              id="delete-understood"
              type="checkbox"
              required
              checked={understood}
              onChange={(e) => setUnderstood(e.currentTarget.checked)}
            />
            <label for="delete-understood">{t('account.delete.understood')}</label>
          </div>
          <CaptchaView captcha={captcha} retried={wrong} />
          <ErrorNote code={captcha.error ?? error} />
          <button type="submit" class="danger" disabled={!understood || busy}>
            {t('account.delete.request')}
          </button>
        </form>
      )}
    </section>
  );
}
