import { useState } from 'preact/hooks';
import { api, errorCode } from '../api.ts';
import { useT } from '../i18n.ts';
import { hrefTo, navigate, type RouteProps } from '../router.ts';
import { markSignedIn, useSession } from '../session.ts';
import { Link } from '../ui/link.tsx';
import { ErrorNote } from '../ui/notice.tsx';
import { CaptchaView, useCaptcha } from './captcha.tsx';
import { Field, fieldErrors, idempotencyKey, type FieldErrors } from './forms.tsx';

/**
 * Sign-up (`POST /v1/auth/register`): name, email, password, consent to the terms, marketing
 * opt-in; the slider puzzle when the server answers `captcha_required`. Signed in at once; the
 * confirmation mail's link lands on `/account/confirm-email`.
 */
export function SignUp(_: RouteProps) {
  const t = useT();
  const session = useSession();
  const captcha = useCaptcha();
  const [form, setForm] = useState({
    first_name: '',
    last_name: '',
    email: '',
    password: '',
    accept_terms: false,
    marketing_opt_in: false,
  });
  const [fields, setFields] = useState<FieldErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [wrongCaptcha, setWrongCaptcha] = useState(false);
  const [busy, setBusy] = useState(false);
  // One key per filled-in form: a repeat after a lost answer does not create a second account.
  const [key, setKey] = useState(idempotencyKey);

  if (session) {
    return (
      <section class="panel narrow">
        <p>{t('web.signed_in')}</p>
        <Link href={hrefTo('/account')}>{t('account.title')}</Link>
      </section>
    );
  }

  const set = (name: keyof typeof form, value: string | boolean) => {
    setForm({ ...form, [name]: value });
    setKey(idempotencyKey());
  };

  async function submit(e: Event) {
    e.preventDefault();
    setError(null);
    setFields({});
    if (!form.accept_terms) {
      setFields({ accept_terms: 'must_be_true' });
      return;
    }
    setBusy(true);
    const answer = await captcha.pair();
    // The SDK asks for a cookie session: a 204 sets the cookies and carries no token.
    const { response, error: failed } = await api.POST('/v1/auth/register', {
      body: { ...form, ...answer },
      headers: { 'Idempotency-Key': answer.captcha_id ? idempotencyKey() : key },
    });
    setBusy(false);
    if (response.ok) {
      markSignedIn();
      navigate(hrefTo('/account', { welcome: '1' }), { replace: true });
      return;
    }
    const code = errorCode(failed);
    if (code === 'captcha_required') {
      // Demanded, or the answer was wrong (a puzzle is answered once either way): a new one.
      setWrongCaptcha(Boolean(captcha.challenge));
      await captcha.load(form.email);
      return;
    }
    const byField = fieldErrors(failed);
    if (Object.keys(byField).length) {
      setFields(byField);
      document.getElementById(`signup-${Object.keys(byField)[0]}`)?.focus();
    } else setError(code);
  }

  const text = (
    name: 'first_name' | 'last_name' | 'email' | 'password',
    label: string,
    type: 'text' | 'email',
    auto: string,
  ) => (
    <Field id={`signup-${name}`} label={label} error={fields[name]}>
      {(aria) => (
        <input
          {...aria}
          // One of a few text-like types (Preact's typing narrows each separately).
          type={type as 'text'}
          name={name}
          autoComplete={auto}
          required
          value={form[name]}
          onInput={(e) => set(name, e.currentTarget.value)}
        />
      )}
    </Field>
  );

  return (
    <section class="panel narrow account">
      <h1>{t('account.signup.title')}</h1>
      <form onSubmit={(e) => void submit(e)} noValidate>
        {text('first_name', t('profile.first_name'), 'text', 'given-name')}
        {text('last_name', t('profile.last_name'), 'text', 'family-name')}
        {text('email', t('auth.email'), 'email', 'email')}
        <Field
          id="signup-password"
          label={t('auth.password')}
          error={fields.password}
          hint={t('account.signup.password_hint')}
        >
          {(aria) => (
            <input
              {...aria}
              type="password"
              name="password"
              autoComplete="new-password"
              required
              minLength={10}
              value={form.password}
              onInput={(e) => set('password', e.currentTarget.value)}
            />
          )}
        </Field>
        <Field id="signup-accept_terms" label={t('auth.accept_terms')} error={fields.accept_terms} inline>
          {(aria) => (
            <input
              {...aria}
              type="checkbox"
              name="accept_terms"
              required
              checked={form.accept_terms}
              onChange={(e) => set('accept_terms', e.currentTarget.checked)}
            />
          )}
        </Field>
        <Field id="signup-marketing" label={t('account.signup.marketing')} inline>
          {(aria) => (
            <input
              {...aria}
              type="checkbox"
              name="marketing_opt_in"
              checked={form.marketing_opt_in}
              onChange={(e) => set('marketing_opt_in', e.currentTarget.checked)}
            />
          )}
        </Field>
        <CaptchaView captcha={captcha} retried={wrongCaptcha} />
        <ErrorNote code={captcha.error ?? error} />
        <button type="submit" class="primary" disabled={busy}>
          {t('nav.register')}
        </button>
      </form>
      <p>
        <Link href={hrefTo('/sign-in')}>{t('account.signup.have_account')}</Link>
      </p>
    </section>
  );
}
