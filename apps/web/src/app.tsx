import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from './api.ts';
import { headerItems } from './header-items.ts';
import { LANGUAGES, useT, type Lang } from './i18n.ts';
import { language } from './i18n-state.ts';
import { hrefTo, navScreens, resolve, setQuery, useLocation } from './router.ts';
import { clearSession, useSession } from './session.ts';
import { useStore } from './store.ts';
import { Link } from './ui/link.tsx';

/** The shell: header (navigation, language, session) and the screen of the current URL. */
export function App() {
  const t = useT();
  const loc = useLocation();
  const found = resolve(loc.path);
  const signedIn = useSession() !== null;

  useEffect(() => {
    document.title = `${t(found ? found.screen.title : 'web.not_found.title')} · ${t('web.brand')}`;
  });

  let body;
  if (!found) body = <NotFound />;
  else if (found.screen.signedIn && !signedIn) body = <SignInFirst />;
  else {
    const Screen = found.screen.component;
    body = <Screen params={found.params} query={loc.query} />;
  }

  return (
    <>
      <a class="skip" href="#main">
        {t('web.skip_to_content')}
      </a>
      <header class="top">
        <Link href={hrefTo('/')} class="brand">
          {t('web.brand')}
        </Link>
        <HeaderMenu>
          <nav aria-label={t('web.nav_label')}>
            {navScreens().map((s) => (
              <Link key={s.path} href={hrefTo(s.path)} aria-current={found?.screen === s ? 'page' : undefined}>
                {t(s.nav!.label)}
              </Link>
            ))}
          </nav>
          <LanguagePicker />
          {headerItems().map(({ key, component: Item }) => (
            <Item key={key} />
          ))}
          <SessionMenu />
        </HeaderMenu>
      </header>
      <main id="main">{body}</main>
    </>
  );
}

/**
 * The header's items: in a row on a wide screen; on a phone behind a menu button (they are wider
 * than the screen), the menu closing on a choice, on Escape and on a tap outside it.
 */
function HeaderMenu({ children }: { children: ComponentChildren }) {
  const t = useT();
  const loc = useLocation();
  const [open, setOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => setOpen(false), [loc.href]);
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      toggle.current?.focus();
    };
    const onPointer = (e: PointerEvent) => {
      const target = e.target as Node;
      if (!panel.current?.contains(target) && !toggle.current?.contains(target)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open]);
  return (
    <>
      <button
        ref={toggle}
        type="button"
        class="menu-toggle"
        aria-expanded={open}
        aria-controls="top-menu"
        onClick={() => setOpen(!open)}
      >
        <svg width="22" height="22" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path fill="currentColor" d={open ? MENU_CLOSE : MENU_OPEN} />
        </svg>
        <span class="visually-hidden">{t('web.menu')}</span>
      </button>
      <div ref={panel} id="top-menu" class="top-menu" data-open={String(open)}>
        {children}
      </div>
    </>
  );
}

const MENU_OPEN = 'M3 6h18v2H3zm0 5h18v2H3zm0 5h18v2H3z';
const MENU_CLOSE = 'M6.4 5 12 10.6 17.6 5 19 6.4 13.4 12l5.6 5.6-1.4 1.4-5.6-5.6L6.4 19 5 17.6l5.6-5.6L5 6.4z';

/** The page's own answer to an address it has no screen for (the server answers it with 404). */
function NotFound() {
  const t = useT();
  return (
    <section class="panel narrow not-found">
      <h1>{t('web.not_found.title')}</h1>
      <p>{t('errors.not_found')}</p>
      <Link class="button-link" href={hrefTo('/')}>
        {t('web.not_found.home')}
      </Link>
    </section>
  );
}

function SignInFirst() {
  const t = useT();
  const loc = useLocation();
  return (
    <p class="empty">
      <Link href={hrefTo('/sign-in', { next: loc.href })}>{t('nav.sign_in')}</Link>
    </p>
  );
}

/** Languages named in their own language (`/v1/i18n/languages`); the choice goes into `?lang=`. */
function LanguagePicker() {
  const t = useT();
  const lang = useStore(language);
  const [names, setNames] = useState<Record<string, string>>({});
  useEffect(() => {
    void api.GET('/v1/i18n/languages').then(({ data }) => {
      const list = (data as { languages?: Array<{ code: string; name: string }> } | undefined)?.languages ?? [];
      setNames(Object.fromEntries(list.map((l) => [l.code, l.name])));
    });
  }, []);
  return (
    <label class="lang">
      <span class="visually-hidden">{t('web.language')}</span>
      <select
        value={lang}
        onChange={(e) => setQuery({ lang: (e.currentTarget.value as Lang) || null }, { replace: true })}
      >
        {LANGUAGES.map((l) => (
          <option key={l} value={l}>
            {names[l] ?? l}
          </option>
        ))}
      </select>
    </label>
  );
}

function SessionMenu() {
  const t = useT();
  const loc = useLocation();
  const session = useSession();
  if (!session) {
    return (
      <Link class="session" href={hrefTo('/sign-in', { next: loc.href })}>
        {t('nav.sign_in')}
      </Link>
    );
  }
  return (
    <button
      type="button"
      class="session"
      onClick={() => {
        // The session ends on the server too; the page is signed out whatever it answers.
        void api.POST('/v1/auth/logout').finally(clearSession);
      }}
    >
      {t('nav.sign_out')}
    </button>
  );
}
