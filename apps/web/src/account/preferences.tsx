import { useEffect, useState } from 'preact/hooks';
import { api, errorCode, type Schemas } from '../api.ts';
import { useT } from '../i18n.ts';
import type { RouteProps } from '../router.ts';
import { ErrorNote, Loading } from '../ui/notice.tsx';

type Group = Schemas['EmailPrefGroup'];

/** A preference code's words (`booking.reminder` → `account.pref.booking.reminder`), else the code. */
function usePrefText() {
  const t = useT();
  return (code: string) => {
    const key = `account.pref.${code}`;
    const text = t(key);
    return text === key ? code : text;
  };
}

/** Email and push preferences (`/v1/me/email-prefs`, `/v1/me/push-prefs`), saved per switch. */
export function PreferencesScreen(_: RouteProps) {
  const t = useT();
  const label = usePrefText();
  const [email, setEmail] = useState<Group[] | null>(null);
  const [push, setPush] = useState<Schemas['PushPrefsBody'] | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    void api.GET('/v1/me/email-prefs').then(({ data, error: failed }) => {
      if (data) setEmail(data.groups);
      else setError(errorCode(failed));
    });
    void api.GET('/v1/me/push-prefs').then(({ data, error: failed }) => {
      if (data) setPush(data);
      else setError(errorCode(failed));
    });
  }, []);

  async function setEmailPref(code: string, on: boolean) {
    const { data, error: failed } = await api.PUT('/v1/me/email-prefs', { body: { prefs: { [code]: on } } });
    if (data) setEmail(data.groups);
    setError(data ? null : errorCode(failed));
  }
  async function setPushPref(body: Schemas['PushPrefsUpdate']) {
    const { data, error: failed } = await api.PUT('/v1/me/push-prefs', { body });
    if (data) setPush(data);
    setError(data ? null : errorCode(failed));
  }

  const groups = (
    kind: 'email' | 'push',
    list: Group[],
    disabled: boolean,
    save: (code: string, on: boolean) => void,
  ) =>
    list.map((g) => (
      <fieldset key={g.code} class="prefs" disabled={disabled}>
        <legend>{label(g.code)}</legend>
        {g.items.map((item) => (
          <div class="acct-check" key={item.code}>
            <input
              id={`${kind}-${item.code}`}
              type="checkbox"
              checked={item.enabled}
              onChange={(e) => save(item.code, e.currentTarget.checked)}
            />
            <label for={`${kind}-${item.code}`}>{label(item.code)}</label>
          </div>
        ))}
      </fieldset>
    ));

  return (
    <section class="panel account">
      <h1>{t('account.prefs.title')}</h1>
      <ErrorNote code={error} />
      <h2>{t('account.prefs.email')}</h2>
      {email ? groups('email', email, false, (c, on) => void setEmailPref(c, on)) : !error && <Loading />}
      <h2>{t('account.prefs.push')}</h2>
      {push ? (
        <>
          <div class="acct-check">
            <input
              id="push-enabled"
              type="checkbox"
              checked={push.enabled}
              onChange={(e) => void setPushPref({ enabled: e.currentTarget.checked })}
            />
            <label for="push-enabled">{t('account.prefs.push_enabled')}</label>
          </div>
          {groups('push', push.groups, !push.enabled, (c, on) => void setPushPref({ prefs: { [c]: on } }))}
        </>
      ) : (
        !error && <Loading />
      )}
    </section>
  );
}
