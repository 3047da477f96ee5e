import { useState } from 'preact/hooks';
import { api, errorCode } from '../api.ts';
import { useT } from '../i18n.ts';
import type { RouteProps } from '../router.ts';
import { ErrorNote } from '../ui/notice.tsx';
import { Done, Field, fieldErrors, type FieldErrors } from './forms.tsx';

/**
 * Password change from inside the account (`POST /v1/auth/password/change`): the current password
 * and a new one. The API keeps this session and ends the others; its refusals (400 on
 * `current_password`: `wrong_password`; on `new_password`: too short, too common, the same as the
 * current one, …; 422 for a missing field) stand beside their fields, the first one focused.
 */
export function PasswordScreen(_: RouteProps) {
  const t = useT();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [fields, setFields] = useState<FieldErrors>({});
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(e: Event) {
    e.preventDefault();
    const missing: FieldErrors = {};
    if (!current) missing.current_password = 'required';
    if (!next) missing.new_password = 'required';
    setFields(missing);
    setError(null);
    setDone(false);
    if (Object.keys(missing).length) {
      document.getElementById(`password-${Object.keys(missing)[0]}`)?.focus();
      return;
    }
    setBusy(true);
    const { data, error: failed } = await api.POST('/v1/auth/password/change', {
      body: { current_password: current, new_password: next },
    });
    setBusy(false);
    if (data) {
      setDone(true);
      setCurrent('');
      setNext('');
      return;
    }
    const byField = fieldErrors(failed);
    if (Object.keys(byField).length) {
      setFields(byField);
      document.getElementById(`password-${Object.keys(byField)[0]}`)?.focus();
    } else setError(errorCode(failed));
  }

  return (
    <section class="panel narrow account">
      <h1>{t('profile.change_password')}</h1>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Field id="password-current_password" label={t('account.password.current')} error={fields.current_password}>
          {(aria) => (
            <input
              {...aria}
              name="current_password"
              type="password"
              autoComplete="current-password"
              required
              value={current}
              onInput={(e) => setCurrent(e.currentTarget.value)}
            />
          )}
        </Field>
        <Field
          id="password-new_password"
          label={t('account.password.new')}
          error={fields.new_password}
          hint={t('account.signup.password_hint')}
        >
          {(aria) => (
            <input
              {...aria}
              name="new_password"
              type="password"
              autoComplete="new-password"
              required
              value={next}
              onInput={(e) => setNext(e.currentTarget.value)}
            />
          )}
        </Field>
        <ErrorNote code={error} />
        <Done text={done ? t('account.password.changed') : null} />
        <button type="submit" class="primary" disabled={busy}>
          {t('profile.change_password')}
        </button>
      </form>
    </section>
  );
}
