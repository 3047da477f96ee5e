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
      <svg class="bell" width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <path
          fill="currentColor"
          d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5-6.71V3.5a2 2 0 0 0-4 0v.79A7 7 0 0 0 5 11v5l-2 2v1h18v-1Z"
        />
      </svg>
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
