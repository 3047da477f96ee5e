import { useEffect, useState } from 'preact/hooks';
import { api, errorCode, type Schemas } from '../api.ts';
import { currentLang, useT } from '../i18n.ts';
import type { RouteProps } from '../router.ts';
import { ErrorNote, Loading } from '../ui/notice.tsx';
import { Done } from './forms.tsx';

type Session = Schemas['SessionResponse'];

const when = (iso: string) =>
  new Intl.DateTimeFormat(currentLang(), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

/** The user-agent reader (bowser), loaded with this screen only: the other screens need none of it. */
type Namer = typeof import('./device-name.ts').deviceName;

/**
 * The account's sessions (`GET /v1/me/sessions`), each named by its browser and system ("Chrome on
 * Linux", the raw user agent in its tooltip): end one, or every one but this (`logout-all`).
 */
export function SessionsScreen(_: RouteProps) {
  const t = useT();
  const [namer, setNamer] = useState<{ name: Namer } | null>(null);
  const [list, setList] = useState<Session[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function reload() {
    const { data, error: failed } = await api.GET('/v1/me/sessions');
    setList(data ?? null);
    setError(data ? null : errorCode(failed));
  }
  useEffect(() => {
    void reload();
    import('./device-name.ts')
      .then((m) => setNamer({ name: m.deviceName }))
      // The reader did not load (connection lost): the rows still show, by their user agent.
      .catch(() => setNamer({ name: (ua, tr) => ua || tr('account.sessions.unknown_device') }));
  }, []);

  async function endOthers() {
    setBusy(true);
    const { data, error: failed } = await api.POST('/v1/auth/logout-all');
    setBusy(false);
    setDone(data ? t('account.sessions.others_ended') : null);
    if (!data) setError(errorCode(failed));
    await reload();
  }

  async function end(id: string) {
    setBusy(true);
    const { data, error: failed } = await api.DELETE('/v1/me/sessions/{session_id}', {
      params: { path: { session_id: id } },
    });
    setBusy(false);
    setDone(data ? t('account.sessions.ended') : null);
    if (!data) setError(errorCode(failed));
    await reload();
  }

  const others = (list ?? []).filter((s) => !s.current);
  return (
    <section class="panel account">
      <h1>{t('profile.sessions')}</h1>
      <ErrorNote code={error} />
      <Done text={done} />
      {(!list || !namer) && !error && <Loading />}
      {list && namer && (
        <ul class="sessions">
          {list.map((s) => (
            <li key={s.id} class={s.current ? 'current' : undefined} data-session={s.id}>
              <p class="device" title={s.user_agent ?? undefined}>
                {namer.name(s.user_agent, t)}
              </p>
              <p class="hint">
                {t('account.sessions.meta', { ip: s.ip, created: when(s.created_at), used: when(s.last_used_at) })}
              </p>
              {s.current ? (
                <span class="tag ok">{t('account.sessions.this_device')}</span>
              ) : (
                <button type="button" disabled={busy} onClick={() => void end(s.id)}>
                  {t('account.sessions.end')}
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      <button type="button" class="primary" disabled={busy || others.length === 0} onClick={() => void endOthers()}>
        {t('account.sessions.end_others')}
      </button>
    </section>
  );
}
