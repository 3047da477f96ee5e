import { useState } from 'preact/hooks';
import { api, errorCode } from '../api.ts';
import { useT } from '../i18n.ts';
import { hrefTo, type RouteProps } from '../router.ts';
import { Link } from '../ui/link.tsx';
import { ErrorNote, Loading } from '../ui/notice.tsx';
import { Done } from './forms.tsx';
import { useMe } from './use-me.ts';

/** The account area's start: who is signed in, whether the email is confirmed, and its screens. */
export const ACCOUNT_LINKS: Array<{ path: string; label: string }> = [
  { path: '/account/profile', label: 'account.profile.title' },
  { path: '/account/password', label: 'profile.change_password' },
  { path: '/account/sessions', label: 'profile.sessions' },
  { path: '/account/preferences', label: 'account.prefs.title' },
  { path: '/account/favorites', label: 'nav.favorites' },
  { path: '/account/transactions', label: 'account.tx.title' },
  { path: '/account/delete', label: 'profile.delete_account' },
];

export function AccountHome({ query }: RouteProps) {
  const t = useT();
  const { me, error } = useMe();
  const [resent, setResent] = useState<string | null>(null);
  const [resendError, setResendError] = useState<string | null>(null);

  async function resend() {
    const { data, error: failed } = await api.POST('/v1/auth/resend-confirmation');
    setResent(data ? t('account.confirm.resent') : null);
    setResendError(data ? null : errorCode(failed));
  }

  return (
    <section class="panel account">
      <h1>{t('account.title')}</h1>
      {query.get('welcome') && me && !me.email_confirmed && (
        <p class="done" role="status">
          {t('auth.confirm_email_sent', { email: me.email ?? '' })}
        </p>
      )}
      <ErrorNote code={error} />
      {!me && !error && <Loading />}
      {me && (
        <div class="account-card">
          {me.avatar_url ? (
            <img class="avatar" src={me.avatar_url} width={72} height={72} alt={t('account.avatar.current')} />
          ) : (
            <span class="avatar empty" aria-hidden="true">
              {me.first_name.slice(0, 1)}
            </span>
          )}
          <div>
            <p class="name">
              {me.first_name} {me.last_name}
            </p>
            <p>
              {me.email}{' '}
              <span class={`tag${me.email_confirmed ? ' ok' : ''}`} data-confirmed={String(me.email_confirmed)}>
                {me.email_confirmed ? t('account.email.confirmed') : t('account.email.unconfirmed')}
              </span>
            </p>
            {!me.email_confirmed && (
              <button type="button" onClick={() => void resend()}>
                {t('account.confirm.resend')}
              </button>
            )}
            <Done text={resent} />
            <ErrorNote code={resendError} />
          </div>
        </div>
      )}
      <nav aria-label={t('account.title')}>
        <ul class="account-links">
          {ACCOUNT_LINKS.map((l) => (
            <li key={l.path}>
              <Link href={hrefTo(l.path)}>{t(l.label)}</Link>
            </li>
          ))}
        </ul>
      </nav>
    </section>
  );
}
