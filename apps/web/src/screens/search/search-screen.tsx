import { useEffect, useMemo, useState } from 'preact/hooks';
import { api } from '../../api.ts';
import { appConfig } from '../../config.ts';
import { useT } from '../../i18n.ts';
import { MapCard } from '../../map/map-card.tsx';
import { MapView } from '../../map/map-view.tsx';
import { navigate, setQuery, type RouteProps } from '../../router.ts';
import { listingHref } from '../../links.ts';
import { useSession } from '../../session.ts';
import { usePhone } from '../../ui/use-phone.ts';
import { Feed } from './feed.tsx';
import { FiltersPanel } from './filters-panel.tsx';
import {
  activeFilterCount,
  filtersFromUrl,
  KINDS,
  kindOf,
  mapViewFromUrl,
  mapViewToUrl,
  type MapView as View,
} from './filters.ts';
import { SearchBox } from './search-box.tsx';
import { useSearch, type Area } from './use-search.ts';

/**
 * The main screen: the map and the feed beside it, the text search, the kinds and the filters.
 * The URL holds it all (`?kind=stay&q=Kata&price_max=…&map=13/7.82/98.30`).
 */
export function SearchScreen({ query }: RouteProps) {
  const t = useT();
  const signedIn = useSession() !== null;
  const filters = useMemo(() => filtersFromUrl(query), [query.toString()]);
  const kind = kindOf(query);
  const [area, setArea] = useState<Area | null | undefined>(undefined);
  // The open filter panel is part of the view too: a link can open it.
  const showFilters = query.get('filters') === 'open';
  const setShowFilters = (open: boolean) => setQuery({ filters: open ? 'open' : null }, { replace: true });
  const urlView = mapViewFromUrl(query);
  const start = appConfig?.map.start ?? { lat: 7.88, lon: 98.39, zoom: 10 };
  const view: View = urlView ?? { zoom: start.zoom, lat: start.lat, lon: start.lon };
  // A phone shows the list or the map (`?view=map`), each the full height; a wide screen both.
  const phone = usePhone();
  const shown: 'both' | 'list' | 'map' = !phone ? 'both' : query.get('view') === 'map' ? 'map' : 'list';
  const search = useSearch(filters, area, signedIn, { map: shown !== 'list' });
  const filterCount = activeFilterCount(query);
  // "…" while it is counted; a dash when it cannot be (the feed says why), never "…" for good.
  const count = search.count ?? (search.countFailed ? '–' : '…');
  // MapLibre (a large script and a second of start-up on a phone) loads once the first cards are
  // painted, so that it never delays them; a phone showing the list does without it.
  const painted = useFirstPaint(!search.loadingFeed);
  const startMap = shown === 'map' || (shown === 'both' && painted);

  // The card the guest is on (its pin stands out) and the pins tapped (their small card shows).
  const [hovered, setHovered] = useState<number | null>(null);
  const [picked, setPicked] = useState<number[] | null>(null);
  const currency = query.get('currency');

  function onMove(next: Area | null, v: View | null) {
    setArea(next);
    // The map may still report its last move once another screen has taken its place (a listing).
    if (v && window.location.pathname === '/') setQuery({ map: mapViewToUrl(v) }, { replace: true });
  }

  return (
    <div class="search-screen">
      <h1 class="visually-hidden">{t('nav.map')}</h1>
      <div class="toolbar">
        <SearchBox
          value={query.get('q') ?? ''}
          kind={kind}
          onSearch={(q) => setQuery({ q: q || null })}
          onListing={(id) => navigate(listingHref(id, query))}
          onPlace={(place) => {
            void api.GET('/v1/places/{slug}', { params: { path: { slug: place.slug } } }).then(({ data }) => {
              const c = data?.center;
              const zoom =
                place.level === 'district' || place.level === 'area' ? 13 : place.level === 'region' ? 10 : 6;
              setQuery({ q: place.name, ...(c ? { map: mapViewToUrl({ zoom, lat: c.lat, lon: c.lon }) } : {}) });
            });
          }}
          onCategory={(c) => setQuery({ kind: c.kind, category_id: String(c.id), q: null })}
        />
        <div class="kinds" role="group" aria-label={t('web.kind_label')}>
          {KINDS.map((k) => (
            <button
              type="button"
              key={k}
              aria-pressed={kind === k}
              // The price limits are on a scale of the last kind's price unit: they go with it.
              onClick={() =>
                setQuery({
                  kind: k === 'all' ? null : k,
                  ...(query.get('price_unit') ? { price_unit: null, price_min: null, price_max: null } : {}),
                })
              }
            >
              {t(`kind.${k}`)}
            </button>
          ))}
        </div>
        <button
          type="button"
          class="filters-toggle"
          aria-expanded={showFilters}
          onClick={() => setShowFilters(!showFilters)}
        >
          {t('search.filters.title')}
          {filterCount > 0 && <span class="badge">{filterCount}</span>}
        </button>
        <button type="button" class="primary show-results" onClick={() => setShowFilters(false)} aria-live="polite">
          {t('search.show_results', { count })}
        </button>
      </div>
      <div class="panes" data-shown={shown}>
        {showFilters && (
          <FiltersPanel query={query} count={count} invalid={search.fields} onClose={() => setShowFilters(false)} />
        )}
        <Feed
          viewKey={search.key}
          restoredTop={search.restoredTop}
          items={search.items}
          hasMore={search.hasMore}
          loading={search.loadingFeed}
          stale={search.loadingFeed && !search.loadingMore}
          error={search.error}
          invalid={Object.keys(search.fields).length > 0}
          failedMore={search.failedMore}
          currency={currency}
          q={query.get('q')}
          onHover={setHovered}
          unmatched={search.unmatched}
          loadMore={search.loadMore}
          retry={search.retry}
          fixFilters={() => setShowFilters(true)}
        />
        <MapView
          view={view}
          data={shown === 'list' ? null : search.map}
          currency={currency}
          highlight={hovered ?? picked?.[0] ?? null}
          start={startMap}
          onMove={onMove}
          onPick={(ids) => {
            setPicked(ids);
            document.querySelector(`.card[data-id="${ids[0]}"]`)?.scrollIntoView({ block: 'nearest' });
          }}
        >
          {picked && (
            <MapCard
              ids={picked}
              points={search.map?.points ?? []}
              cards={search.items}
              currency={currency}
              onClose={() => setPicked(null)}
            />
          )}
        </MapView>
        {phone && (
          <button
            type="button"
            class="view-switch"
            onClick={() => setQuery({ view: shown === 'map' ? null : 'map' }, { replace: true })}
          >
            <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
              <path fill="currentColor" d={shown === 'map' ? LIST_ICON : MAP_ICON} />
            </svg>
            {shown === 'map' ? t('map.show_list') : t('map.show_map')}
          </button>
        )}
      </div>
    </div>
  );
}

const MAP_ICON = 'M15 5.1 9 3 3 5v16l6-2.1 6 2.1 6-2V3zM14 18.7l-4-1.4V5.3l4 1.4z';
const LIST_ICON = 'M4 5h2v2H4zm4 0h12v2H8zM4 11h2v2H4zm4 0h12v2H8zm-4 6h2v2H4zm4 0h12v2H8z';

/** True from the frame after `ready` first became true (the browser has painted what it showed). */
function useFirstPaint(ready: boolean): boolean {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    if (!ready || painted) return;
    let second = 0;
    const first = requestAnimationFrame(() => {
      second = requestAnimationFrame(() => setPainted(true));
    });
    return () => {
      cancelAnimationFrame(first);
      cancelAnimationFrame(second);
    };
  }, [ready, painted]);
  return painted;
}
