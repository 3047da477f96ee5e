import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { paths } from '@guest/client';
import { api, errorCode, type Schemas } from '../../api.ts';
import { fieldErrors, type FieldErrors } from '../../account/forms.tsx';
import { useLang } from '../../i18n.ts';
import type { FeedQuery } from './filters.ts';

/** The visible area of the map: what drives map, feed and count. */
export interface Area {
  bbox: string;
  zoom: number;
}

type MapQuery = NonNullable<paths['/v1/search/map']['get']['parameters']['query']>;
const getMap = (query: MapQuery, signal: AbortSignal) => api.GET('/v1/search/map', { params: { query }, signal });
export type MapAnswer = NonNullable<Awaited<ReturnType<typeof getMap>>['data']>;

export interface SearchState {
  /** The request the answers below belong to. */
  key: string;
  map: MapAnswer | null;
  items: Schemas['ListingCard'][];
  cursor: string | null;
  hasMore: boolean;
  count: number | null;
  /** The count could not be had (the feed's error says why). */
  countFailed: boolean;
  loadingFeed: boolean;
  /** What is loading is a next page: the cards shown are current. */
  loadingMore: boolean;
  /** The error code of the last failed request (`network` when there was no answer). */
  error: string | null;
  /** The fields a 400 named (`date_to` …): the filters panel marks them. */
  fields: FieldErrors;
  /** The failure was of a next page: the cards above it are current, retrying asks that page again. */
  failedMore: boolean;
  /** Words of `q` no result has (the feed's `unmatched_terms`). */
  unmatched: string[];
}

const empty = (key: string): SearchState => ({
  key,
  map: null,
  items: [],
  cursor: null,
  hasMore: false,
  count: null,
  countFailed: false,
  loadingFeed: true,
  loadingMore: false,
  error: null,
  fields: {},
  failedMore: false,
  unmatched: [],
});

/**
 * The last view's answers, how far its feed was scrolled and the address it was shown at: coming
 * back to that address (back from a listing page) shows them again, every page loaded and at the
 * same place, without asking. The map settles its box again on the way (its first box is an
 * estimate): while the address stays the one come back to, a new box of the same view keeps them.
 */
let kept: { state: SearchState; scrollTop: number; href: string; base: string; area: Area | null | undefined } | null =
  null;

/** The feed of the view `key` is scrolled to `top` (kept for coming back). */
export function keepFeedScroll(key: string, top: number): void {
  if (kept?.state.key === key) kept.scrollTop = top;
}

const pageHref = () => window.location.pathname + window.location.search;

/** Two boxes of one view: the same zoom, edges apart by at most 2 % of the box. */
function sameView(a: Area | null | undefined, b: Area | null | undefined): boolean {
  if (!a || !b) return a === b;
  const [x, y] = [a.bbox.split(',').map(Number), b.bbox.split(',').map(Number)];
  const span = Math.max(Math.abs(x[2]! - x[0]!), Math.abs(x[3]! - x[1]!));
  return Math.abs(a.zoom - b.zoom) < 0.05 && x.every((v, i) => Math.abs(v - y[i]!) <= span * 0.02);
}

const aborted = (err: unknown) => err instanceof DOMException && err.name === 'AbortError';

/**
 * The feed's first page and the count for the filters and the area, and the map markers while the
 * map is shown (`opts.map`; a phone showing the list asks for none), asked whenever the filters
 * or the area change. Every answer is applied only if it belongs to the latest request: the
 * requests of an older view are aborted, and an answer that still arrives late is dropped, so a
 * slow old answer never overwrites a newer one. `undefined` area: the map is not placed yet
 * (nothing is asked); `null`: there is no map, search everywhere.
 *
 * While a new view is asked for, the previous cards stay, marked busy (`loadingFeed`). When it
 * fails, they go: what is shown is never another view's answer presented as this one's; the
 * error and `retry()` take their place (asked again by itself when the browser is back online).
 */
export function useSearch(
  filters: FeedQuery,
  area: Area | null | undefined,
  signedIn: boolean,
  opts: { map: boolean } = { map: true },
) {
  // Cards and markers are in the interface language (Accept-Language): asked again when it changes.
  const lang = useLang();
  const [attempt, setAttempt] = useState(0);
  const key = JSON.stringify({ filters, area, signedIn, lang });
  // What the answers depend on besides the map's box.
  const base = JSON.stringify({ filters, signedIn, lang });
  // The address whose kept answers are shown (come back to), while it stays the page's.
  const restored = useRef<Area | null | undefined | false>(false);
  // The first area of this screen: only then can the view be one come back to.
  const mounting = useRef(true);
  const [state, setState] = useState<SearchState>(() => empty(key));
  // Where the feed is to be scrolled once the kept answers of this view are shown again.
  const [restoredTop, setRestoredTop] = useState<number | null>(null);
  const latest = useRef(key);
  const controller = useRef<AbortController | null>(null);
  const apply = (forKey: string, patch: Partial<SearchState> | ((s: SearchState) => Partial<SearchState>)) =>
    setState((s) =>
      latest.current === forKey && s.key === forKey ? { ...s, ...(typeof patch === 'function' ? patch(s) : patch) } : s,
    );
  /** A failed first page: nothing of an older view stays on screen. */
  const failed = (forKey: string, error: string, fields: FieldErrors = {}) =>
    apply(forKey, {
      items: [],
      cursor: null,
      hasMore: false,
      map: null,
      loadingFeed: false,
      countFailed: true,
      error,
      fields,
      failedMore: false,
    });

  useEffect(() => {
    latest.current = key;
    controller.current?.abort();
    if (area === undefined) return;
    const back = kept;
    const href = pageHref();
    const first = mounting.current;
    mounting.current = false;
    if (first && back && back.base === base && back.href === href && !back.state.loadingFeed && !back.state.error) {
      restored.current = back.area;
      setState({ ...back.state, key });
      setRestoredTop(back.scrollTop);
      return;
    }
    if (attempt === 0 && restored.current !== false && sameView(restored.current, area) && back?.base === base) {
      // The same view come back to, its box settled: the kept answers stay.
      setState((s) => ({ ...s, key }));
      return;
    }
    restored.current = false;
    setRestoredTop(null);
    const abort = new AbortController();
    controller.current = abort;
    // The cards and markers of the previous view stay (marked busy) until the new answers come:
    // clearing them would make the page jump at every move of the map.
    setState((s) => ({
      ...s,
      key,
      cursor: null,
      hasMore: false,
      count: null,
      countFailed: false,
      loadingFeed: true,
      loadingMore: false,
      error: null,
      fields: {},
      failedMore: false,
      unmatched: [],
    }));
    const where = area ? { bbox: area.bbox } : {};
    const fail = (err: unknown) => {
      if (!aborted(err)) failed(key, 'network');
    };

    api
      .GET('/v1/search/listings', { params: { query: { ...filters, ...where } }, signal: abort.signal })
      .then(({ data, error }) => {
        if (data)
          apply(key, {
            items: data.items,
            cursor: data.next_cursor ?? null,
            hasMore: data.has_more,
            loadingFeed: false,
            unmatched: data.unmatched_terms,
          });
        else failed(key, errorCode(error), fieldErrors(error));
      })
      .catch(fail);
    api
      .GET('/v1/search/count', { params: { query: { ...filters, ...where } }, signal: abort.signal })
      .then(({ data }) => apply(key, data ? { count: data.count } : { countFailed: true }))
      .catch((err: unknown) => {
        if (!aborted(err)) apply(key, { countFailed: true });
      });
    return () => abort.abort();
  }, [key, attempt]);

  // The markers: for the same view, asked once the map is shown (and again when it moves).
  useEffect(() => {
    if (!area || !opts.map) return;
    const abort = new AbortController();
    const { limit: _limit, cursor: _cursor, sort: _sort, ...mapFilters } = filters;
    getMap({ ...mapFilters, bbox: area.bbox, zoom: area.zoom }, abort.signal)
      // Markers of another view are not this view's: none rather than those.
      .then(({ data }) => apply(key, { map: data ?? null }))
      .catch((err: unknown) => {
        if (!aborted(err)) apply(key, { map: null });
      });
    return () => abort.abort();
  }, [key, opts.map, attempt]);

  const loadMore = useCallback(() => {
    const s = state;
    if (s.key !== key || !s.hasMore || !s.cursor || s.loadingFeed) return;
    setState({ ...s, loadingFeed: true, loadingMore: true, error: null, failedMore: false });
    const where = area ? { bbox: area.bbox } : {};
    api
      .GET('/v1/search/listings', {
        params: { query: { ...filters, ...where, cursor: s.cursor } },
        signal: controller.current?.signal,
      })
      .then(({ data, error }) =>
        apply(key, (cur) =>
          data
            ? {
                items: [...cur.items, ...data.items],
                cursor: data.next_cursor ?? null,
                hasMore: data.has_more,
                loadingFeed: false,
                loadingMore: false,
              }
            : { loadingFeed: false, loadingMore: false, error: errorCode(error), failedMore: true },
        ),
      )
      .catch((err: unknown) => {
        if (!aborted(err)) apply(key, { loadingFeed: false, loadingMore: false, error: 'network', failedMore: true });
      });
  }, [state, key]);

  /** Asks again what failed: the next page, or the whole view. */
  const retry = useCallback(() => {
    if (state.failedMore) loadMore();
    else setAttempt((n) => n + 1);
  }, [state.failedMore, loadMore]);

  // Back online after a lost connection: ask again without waiting for a tap.
  useEffect(() => {
    if (state.error !== 'network') return;
    window.addEventListener('online', retry);
    return () => window.removeEventListener('online', retry);
  }, [state.error, retry]);

  useEffect(() => {
    // Before its first area this screen shows nothing of its own: what is kept stays for it.
    if (mounting.current) return;
    const scrollTop = kept?.state.key === state.key ? kept.scrollTop : 0;
    kept = { state, scrollTop, href: pageHref(), base, area: restored.current === false ? area : restored.current };
  }, [state]);

  return { ...state, current: state.key === key, restoredTop, loadMore, retry };
}
