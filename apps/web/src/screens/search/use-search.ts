import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import type { paths } from '@guest/client';
import { api, errorCode, type Schemas } from '../../api.ts';
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
  loadingFeed: boolean;
  error: string | null;
}

const empty = (key: string): SearchState => ({
  key,
  map: null,
  items: [],
  cursor: null,
  hasMore: false,
  count: null,
  loadingFeed: true,
  error: null,
});

const aborted = (err: unknown) => err instanceof DOMException && err.name === 'AbortError';

/**
 * The feed's first page and the count for the filters and the area, and the map markers while the
 * map is shown (`opts.map`; a phone showing the list asks for none), asked whenever the filters
 * or the area change. Every answer is applied only if it belongs to the latest request: the
 * requests of an older view are aborted, and an answer that still arrives late is dropped, so a
 * slow old answer never overwrites a newer one. `undefined` area: the map is not placed yet
 * (nothing is asked); `null`: there is no map, search everywhere.
 */
export function useSearch(
  filters: FeedQuery,
  area: Area | null | undefined,
  signedIn: boolean,
  opts: { map: boolean } = { map: true },
) {
  // Cards and markers are in the interface language (Accept-Language): asked again when it changes.
  const lang = useLang();
  const key = JSON.stringify({ filters, area, signedIn, lang });
  const [state, setState] = useState<SearchState>(() => empty(key));
  const latest = useRef(key);
  const controller = useRef<AbortController | null>(null);
  const apply = (forKey: string, patch: Partial<SearchState>) =>
    setState((s) => (latest.current === forKey && s.key === forKey ? { ...s, ...patch } : s));

  useEffect(() => {
    latest.current = key;
    controller.current?.abort();
    if (area === undefined) return;
    const abort = new AbortController();
    controller.current = abort;
    // The cards and markers of the previous view stay (marked busy) until the new answers come:
    // clearing them would make the page jump at every move of the map.
    setState((s) => ({ ...s, key, cursor: null, hasMore: false, count: null, loadingFeed: true, error: null }));
    const where = area ? { bbox: area.bbox } : {};
    const fail = (err: unknown) => {
      if (!aborted(err)) apply(key, { error: 'network', loadingFeed: false });
    };

    api
      .GET('/v1/search/listings', { params: { query: { ...filters, ...where } }, signal: abort.signal })
      .then(({ data, error }) =>
        apply(
          key,
          data
            ? { items: data.items, cursor: data.next_cursor ?? null, hasMore: data.has_more, loadingFeed: false }
            : { error: errorCode(error), loadingFeed: false },
        ),
      )
      .catch(fail);
    api
      .GET('/v1/search/count', { params: { query: { ...filters, ...where } }, signal: abort.signal })
      .then(({ data }) => data && apply(key, { count: data.count }))
      .catch(fail);
    return () => abort.abort();
  }, [key]);

  // The markers: for the same view, asked once the map is shown (and again when it moves).
  useEffect(() => {
    if (!area || !opts.map) return;
    const abort = new AbortController();
    const { limit: _limit, cursor: _cursor, sort: _sort, ...mapFilters } = filters;
    getMap({ ...mapFilters, bbox: area.bbox, zoom: area.zoom }, abort.signal)
      .then(({ data }) => data && apply(key, { map: data }))
      .catch((err: unknown) => {
        if (!aborted(err)) apply(key, { error: 'network', loadingFeed: false });
      });
    return () => abort.abort();
  }, [key, opts.map]);

  const loadMore = useCallback(() => {
    const s = state;
    if (s.key !== key || !s.hasMore || !s.cursor || s.loadingFeed) return;
    setState({ ...s, loadingFeed: true });
    const where = area ? { bbox: area.bbox } : {};
    api
      .GET('/v1/search/listings', {
        params: { query: { ...filters, ...where, cursor: s.cursor } },
        signal: controller.current?.signal,
      })
      .then(({ data, error }) =>
        setState((cur) => {
          if (latest.current !== key || cur.key !== key) return cur;
          if (!data) return { ...cur, loadingFeed: false, error: errorCode(error) };
          return {
            ...cur,
            items: [...cur.items, ...data.items],
            cursor: data.next_cursor ?? null,
            hasMore: data.has_more,
            loadingFeed: false,
          };
        }),
      )
      .catch((err: unknown) => {
        if (!aborted(err))
          setState((cur) => (cur.key === key ? { ...cur, loadingFeed: false, error: 'network' } : cur));
      });
  }, [state, key]);

  return { ...state, current: state.key === key, loadMore };
}
