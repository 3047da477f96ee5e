import { useT } from '../i18n.ts';
import { hrefTo, useLocation } from '../router.ts';
import { useSession } from '../session.ts';
import { useStore } from '../store.ts';
import { Link } from '../ui/link.tsx';
import { badges, socketOpen } from './realtime.ts';

/** The unread counters in the header, kept fresh by the socket (`badges.updated`). */
export function BadgesIndicator() {
  const t = useT();
  const b = useStore(badges);
  const live = useStore(socketOpen);
  if (!useSession() || !b) return null;
  const total = b.notifications + b.messages + b.assistant;
  const label = t('account.badges.label', {
    notifications: b.notifications,
    messages: b.messages,
    assistant: b.assistant,
  });
  return (
    <Link
      href={hrefTo('/account')}
      class={`badges${total ? ' unread' : ''}`}
      data-total={String(total)}
      data-live={String(live)}
      aria-label={label}
      title={label}
    >
      <span aria-hidden="true">🔔</span>
      <span class="count" aria-hidden="true">
        {total}
      </span>
    </Link>
  );
}

/** "Create account" beside "Sign in" for a signed-out guest. */
export function SignUpLink() {
  const t = useT();
  const loc = useLocation();
  if (useSession() || loc.path === '/account/sign-up') return null;
  return (
    <Link class="session" href={hrefTo('/account/sign-up')}>
      {t('nav.register')}
    </Link>
  );
}
