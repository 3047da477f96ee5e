import { createStore, useStore } from './store.ts';

/**
 * The signed-in session (spec 5.12). The page holds no token: the API keeps the session in
 * HttpOnly cookies (`X-Session: cookie`, see `api.ts`) that no script can read. What the page keeps
 * is only that it is signed in, a mark with a local id (no secret), in `localStorage` so that a
 * reload or a second tab stays signed in, and observable so that the page follows sign-in and
 * sign-out (also from another tab). A mark whose cookies are gone is dropped at the first request
 * the API refuses to refresh.
 */
const KEY = 'guest.signed-in';

/** Where earlier versions of the page kept the token pair: removed, so no token stays behind. */
localStorage.removeItem('guest.session');

/** That the page is signed in; `id` changes with every sign-in (the socket follows it). */
export interface SessionMark {
  id: string;
}

function load(): SessionMark | null {
  try {
    const raw = localStorage.getItem(KEY);
    const mark = raw ? (JSON.parse(raw) as SessionMark) : null;
    return mark && typeof mark.id === 'string' ? mark : null;
  } catch {
    return null;
  }
}

export const session = createStore<SessionMark | null>(load());

function save(mark: SessionMark | null): void {
  if (mark) localStorage.setItem(KEY, JSON.stringify(mark));
  else localStorage.removeItem(KEY);
  session.set(mark);
}

window.addEventListener('storage', (e) => {
  if (e.key === KEY) session.set(load());
});

export function useSession(): SessionMark | null {
  return useStore(session);
}

/** After register or login answered: the API has set the session's cookies. */
export function markSignedIn(): void {
  save({ id: crypto.randomUUID() });
}

/** Signs the page out locally (after logout, or when the server closed the session). */
export function clearSession(): void {
  if (session.get()) save(null);
}
