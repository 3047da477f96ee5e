import { useEffect, useState } from 'preact/hooks';
import { api, errorCode } from '../api.ts';
import { useT } from '../i18n.ts';
import { hrefTo, type RouteProps } from '../router.ts';
import { clearSession, useSession } from '../session.ts';
import { Link } from '../ui/link.tsx';
import { ErrorNote, Loading } from '../ui/notice.tsx';
import { CaptchaView, useCaptcha } from './captcha.tsx';
import { Done, Field, fieldErrors, useReasonText, type FieldErrors } from './forms.tsx';
import { reconnectRealtime } from './realtime.ts';

/**
 * The pages the account mails link to (`APP_LINK_BASE_URL`, by default the server's own public
 * address): `/account/confirm-email`, `/account/reset-password`, `/account/delete-confirm`, each
 * with `?token=`. Each acts through the API; only the email confirmation acts on opening, since
 * it changes nothing the guest could regret.
 */
export function ConfirmEmail({ query }: RouteProps) {
  const t = useT();
  const reason = useReasonText();
  const signedIn = useSession() !== null;
  const token = query.get('token') ?? '';
  const [state, setState] = useState<'working' | 'done' | { reason: string } | { code: string }>('working');
  const [resent, setResent] = useState<string | null>(null);

  useEffect(() => {
    if (!token) {
      setState({ reason: 'invalid_or_expired' });
      return;
    }
    void api.POST('/v1/auth/confirm-email', { body: { token } }).then(({ data, error }) => {
      if (data) {
        setState('done');
        // The socket needs a confirmed email: open it now rather than at the next retry.
        reconnectRealtime();
        return;
      }
      const fields = fieldErrors(error);
      setState(fields.token ? { reason: fields.token } : { code: errorCode(error) });
    });
  }, [token]);

  async function resend() {
    const { data, error } = await api.POST('/v1/auth/resend-confirmation');
    setResent(data ? t('account.confirm.resent') : null);
    if (!data) setState({ code: errorCode(error) });
  }

  return (
    <section class="panel narrow account">
      <h1>{t('account.confirm.title')}</h1>
      {state === 'working' && <Loading />}
      {state === 'done' && (
        <>
          <Done text={t('account.confirm.done')} />
          <Link href={hrefTo(signedIn ? '/account' : '/sign-in')}>
            {signedIn ? t('account.title') : t('nav.sign_in')}
          </Link>
        </>
      )}
      {typeof state === 'object' && 'reason' in state && (
        <p class="error" role="alert">
          {reason(state.reason)}
        </p>
      )}
      {typeof state === 'object' && 'code' in state && <ErrorNote code={state.code} />}
      {typeof state === 'object' && signedIn && (
        <button type="button" onClick={() => void resend()}>
          {t('account.confirm.resend')}
        </button>
      )}
      <Done text={resent} />
    </section>
  );
}

/**
 * Password reset. Without a token: the email to send a reset link to (`password-reset/request`,
 * always 202, the puzzle when demanded). With the mail's token: a new password, after which the
 * API ends every session.
 */
export function ResetPassword({ query }: RouteProps) {
  const token = query.get('token') ?? '';
  return token ? <NewPassword token={token} /> : <RequestReset />;
}

function RequestReset() {
  const t = useT();
  const captcha = useCaptcha();
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const [wrong, setWrong] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    const { response, error: failed } = await api.POST('/v1/auth/password-reset/request', {
      body: { email, ...(await captcha.pair()) },
    });
    setBusy(false);
    if (response.status === 202) {
      setSent(true);
      return;
    }
    const code = errorCode(failed);
    if (code === 'captcha_required') {
      setWrong(Boolean(captcha.challenge));
      await captcha.load(email);
    } else setError(code);
  }

  return (
    <section class="panel narrow account">
      <h1>{t('account.reset.title')}</h1>
      {sent ? (
        <Done text={t('account.reset.sent')} />
      ) : (
        <form onSubmit={(e) => void submit(e)}>
          <Field id="reset-email" label={t('auth.email')}>
            {(aria) => (
              <input
                {...aria}
                type="email"
                autoComplete="email"
                required
                value={email}
                onInput={(e) => setEmail(e.currentTarget.value)}
              />
            )}
          </Field>
          <CaptchaView captcha={captcha} retried={wrong} />
          <ErrorNote code={captcha.error ?? error} />
          <button type="submit" class="primary" disabled={busy}>
            {t('account.reset.request')}
          </button>
        </form>
      )}
    </section>
  );
}

function NewPassword({ token }: { token: string }) {
  const t = useT();
  const [password, setPassword] = useState('');
  const [fields, setFields] = useState<FieldErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(e: Event) {
    e.preventDefault();
    setBusy(true);
    setFields({});
    setError(null);
    const { data, error: failed } = await api.POST('/v1/auth/password-reset/confirm', { body: { token, password } });
    setBusy(false);
    if (data) {
      setDone(true);
      clearSession();
      return;
    }
    const byField = fieldErrors(failed);
    if (Object.keys(byField).length) setFields(byField);
    else setError(errorCode(failed));
  }

  return (
    <section class="panel narrow account">
      <h1>{t('account.reset.title')}</h1>
      {done ? (
        <>
          <Done text={t('account.reset.done')} />
          <Link href={hrefTo('/sign-in')}>{t('nav.sign_in')}</Link>
        </>
      ) : (
        <form onSubmit={(e) => void submit(e)} noValidate>
          {fields.token && (
            <p class="error" role="alert">
              {t('account.reason.invalid_or_expired')}
            </p>
          )}
          <Field
            id="reset-password"
            label={t('account.reset.new_password')}
            error={fields.password}
            hint={t('account.signup.password_hint')}
          >
            {(aria) => (
              <input
                {...aria}
                type="password"
                autoComplete="new-password"
                required
                value={password}
                onInput={(e) => setPassword(e.currentTarget.value)}
              />
            )}
          </Field>
          <ErrorNote code={error} />
          <button type="submit" class="primary" disabled={busy}>
            {t('profile.save')}
          </button>
        </form>
      )}
    </section>
  );
}

/** The last step of account deletion: the mail's link, and one more deliberate click. */
export function DeleteConfirm({ query }: RouteProps) {
  const t = useT();
  const token = query.get('token') ?? '';
  const [state, setState] = useState<'ask' | 'busy' | 'done' | { reason: string } | { code: string }>('ask');
  const reason = useReasonText();

  async function confirm() {
    setState('busy');
    const { data, error } = await api.POST('/v1/auth/delete-confirm', { body: { token } });
    if (data) {
      clearSession();
      setState('done');
      return;
    }
    const fields = fieldErrors(error);
    setState(fields.token ? { reason: fields.token } : { code: errorCode(error) });
  }

  return (
    <section class="panel narrow account">
      <h1>{t('account.delete.title')}</h1>
      {state === 'done' ? (
        <Done text={t('account.delete.done')} />
      ) : (
        <>
          <p>{t('account.delete.confirm_text')}</p>
          <button type="button" class="danger" disabled={state === 'busy'} onClick={() => void confirm()}>
            {t('account.delete.confirm_button')}
          </button>
        </>
      )}
      {typeof state === 'object' && 'reason' in state && (
        <p class="error" role="alert">
          {reason(state.reason)}
        </p>
      )}
      {typeof state === 'object' && 'code' in state && <ErrorNote code={state.code} />}
    </section>
  );
}
