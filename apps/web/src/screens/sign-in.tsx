import { useState } from 'preact/hooks';
import { api, errorCode } from '../api.ts';
import { useT } from '../i18n.ts';
import { hrefTo, navigate } from '../router.ts';
import { markSignedIn, useSession } from '../session.ts';
import { ErrorNote } from '../ui/notice.tsx';
import { Link } from '../ui/link.tsx';
import { CaptchaView, useCaptcha } from '../account/captcha.tsx';
import type { RouteProps } from '../router.ts';

/** Only a path of this site: `next` comes from the URL and must not lead elsewhere. */
function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\') ? next : hrefTo('/');
}

/** Sign-in with email and password (`POST /v1/auth/login`); back to `?next=` afterwards. */
export function SignIn({ query }: RouteProps) {
  const t = useT();
  const session = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // After failed attempts the server demands the slider puzzle (spec 5.10); a wrong answer gets a new one.
  const captcha = useCaptcha();
  const [wrongCaptcha, setWrongCaptcha] = useState(false);

  if (session) {
    return (
      <section class="panel narrow">
        <p>{t('web.signed_in')}</p>
        <button type="button" onClick={() => navigate(safeNext(query.get('next')))}>
          {t('common.back')}
        </button>
      </section>
    );
  }

  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const answer = await captcha.pair();
    // The SDK asks for a cookie session: a 204 sets the cookies and carries no token.
    const { response, error: failed } = await api.POST('/v1/auth/login', {
      body: { email, password, ...answer },
      headers: { 'Idempotency-Key': crypto.randomUUID() },
    });
    setBusy(false);
    if (!response.ok) {
      const code = errorCode(failed);
      if (code === 'captcha_required') {
        setWrongCaptcha(Boolean(captcha.challenge));
        await captcha.load(email);
        return;
      }
      // A puzzle is answered once, right or wrong: the next attempt needs a new one when demanded.
      if (captcha.challenge) await captcha.load(email);
      setError(code === 'unauthorized' ? 'invalid_credentials' : code);
      return;
    }
    markSignedIn();
    navigate(safeNext(query.get('next')), { replace: true });
  }

  return (
    <section class="panel narrow">
      <h1>{t('nav.sign_in')}</h1>
      <form onSubmit={(e) => void submit(e)}>
        <label>
          {t('auth.email')}
          <input
            type="email"
            name="email"
            autoComplete="username"
            required
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
        </label>
        <label>
          {t('auth.password')}
          <input
            type="password"
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onInput={(e) => setPassword(e.currentTarget.value)}
          />
        </label>
        <CaptchaView captcha={captcha} retried={wrongCaptcha} />
        <ErrorNote code={captcha.error ?? (error === 'invalid_credentials' ? null : error)} />
        {error === 'invalid_credentials' && (
          <p class="error" role="alert">
            {t('web.sign_in.invalid')}
          </p>
        )}
        <button type="submit" class="primary" disabled={busy}>
          {t('nav.sign_in')}
        </button>
      </form>
      <p>
        <Link href={hrefTo('/account/reset-password')}>{t('auth.forgot_password')}</Link>
      </p>
      <p>
        <Link href={hrefTo('/account/sign-up')}>{t('account.signup.title')}</Link>
      </p>
    </section>
  );
}
