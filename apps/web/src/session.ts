import type { TokenPair, TokenStore } from '@guest/client';
import { createStore, useStore } from './store.ts';

/**
 * The signed-in session: the token pair, kept in `localStorage` so that a reload or a second tab
 * stays signed in, and observable so that the page follows sign-in and sign-out (also from another
 * tab). The SDK reads and refreshes it (`createGuestClient({ tokens })`); screens read `useSession()`.
 */
const KEY = 'guest.session';

function load(): TokenPair | null {
  try {
    const raw = localStorage.getItem(KEY);
    const pair = raw ? (JSON.parse(raw) as TokenPair) : null;
    return pair && typeof pair.access_token === 'string' && typeof pair.refresh_token === 'string' ? pair : null;
  } catch {
    return null;
  }
}

export const session = createStore<TokenPair | null>(load());

export const tokenStore: TokenStore = {
  get: () => session.get(),
  set(pair) {
    if (pair) localStorage.setItem(KEY, JSON.stringify(pair));
    else localStorage.removeItem(KEY);
    session.set(pair);
  },
};

window.addEventListener('storage', (e) => {
  if (e.key === KEY) session.set(load());
});

export function useSession(): TokenPair | null {
  return useStore(session);
}

/** Signs the page out locally (after logout, or when the server closed the session). */
export function clearSession(): void {
  tokenStore.set(null);
}
