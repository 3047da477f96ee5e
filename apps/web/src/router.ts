import type { ComponentType } from 'preact';
import { createStore, useStore } from './store.ts';

/**
 * Screens and the URL. The URL holds the whole view (screen, filters, map position), so a link
 * reopens the same view: screens read their state from `useLocation()` and change it with
 * `navigate()` / `setQuery()`, never from state of their own that the URL does not carry.
 */
export interface RouteProps {
  /** Path parameters of the pattern (`/events/:slug` → `{ slug }`). */
  params: Record<string, string>;
  query: URLSearchParams;
}

export interface Screen {
  /** `/`, `/events`, `/events/:slug`, `/account/profile` … */
  path: string;
  component: ComponentType<RouteProps>;
  /** Dictionary key of the document title. */
  title: string;
  /** Shown in the top navigation with this dictionary key, in `order`. */
  nav?: { label: string; order: number };
  /** Sends a signed-out guest to the sign-in screen, back here afterwards. */
  signedIn?: boolean;
}

const screens: Screen[] = [];

/** Adds a screen (call at module load, from `screens/index.ts` or `account/index.ts`). */
export function registerScreen(screen: Screen): void {
  if (screens.some((s) => s.path === screen.path)) throw new Error(`screen ${screen.path} registered twice`);
  screens.push(screen);
}

export function navScreens(): Screen[] {
  return screens.filter((s) => s.nav).sort((a, b) => a.nav!.order - b.nav!.order);
}

function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const got = pathname.split('/').filter(Boolean);
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const g = got[i]!;
    if (w.startsWith(':')) params[w.slice(1)] = decodeURIComponent(g);
    else if (w !== g) return null;
  }
  return params;
}

/** The screen for a path: exact segments win over parameters (`/events/upcoming` before `/events/:slug`). */
export function resolve(pathname: string): { screen: Screen; params: Record<string, string> } | null {
  const ranked = [...screens].sort((a, b) => a.path.split(':').length - b.path.split(':').length);
  for (const screen of ranked) {
    const params = matchPath(screen.path, pathname);
    if (params) return { screen, params };
  }
  return null;
}

export interface Location {
  path: string;
  query: URLSearchParams;
  href: string;
}

const read = (): Location => ({
  path: window.location.pathname,
  query: new URLSearchParams(window.location.search),
  href: window.location.pathname + window.location.search,
});

export const location = createStore<Location>(read());
window.addEventListener('popstate', () => location.set(read()));

export function useLocation(): Location {
  return useStore(location);
}

/** Goes to `href` (path and query); `replace` for changes that are not a step back (map moves). */
export function navigate(href: string, opts: { replace?: boolean } = {}): void {
  const current = read();
  if (href === current.href) return;
  if (opts.replace) history.replaceState(history.state, '', href);
  else history.pushState({ depth: historyDepth() + 1 }, '', href);
  location.set(read());
  if (!opts.replace) window.scrollTo(0, 0);
}

/** How many steps of this page's own history lie behind the current one (0 on the first view or a link opened anew). */
function historyDepth(): number {
  const depth = (history.state as { depth?: unknown } | null)?.depth;
  return typeof depth === 'number' ? depth : 0;
}

/** Back to the view before this one when it was this page's own (a card, a pin), else to `fallback`. */
export function goBack(fallback: string): void {
  if (historyDepth() > 0) history.back();
  else navigate(fallback);
}

/**
 * Changes some query parameters of the current URL (null or '' removes one), keeping the others
 * (the interface language among them).
 */
export function setQuery(
  patch: Record<string, string | number | boolean | null | undefined | string[]>,
  opts: { replace?: boolean; path?: string } = {},
): void {
  const current = read();
  const q = new URLSearchParams(current.query);
  for (const [key, value] of Object.entries(patch)) {
    if (value === null || value === undefined || value === '' || (Array.isArray(value) && !value.length)) q.delete(key);
    else q.set(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  const s = q.toString();
  navigate(`${opts.path ?? current.path}${s ? `?${s}` : ''}`, opts);
}

/** A path with the parameters that follow the guest everywhere (the interface language). */
export function hrefTo(path: string, query: Record<string, string> = {}): string {
  const q = new URLSearchParams(query);
  const lang = read().query.get('lang');
  if (lang && !q.has('lang')) q.set('lang', lang);
  const s = q.toString();
  return `${path}${s ? `?${s}` : ''}`;
}
