import { useMemo, useState } from 'preact/hooks';
import { api } from '../../api.ts';
import { appConfig } from '../../config.ts';
import { useT } from '../../i18n.ts';
import { MapView } from '../../map/map-view.tsx';
import { setQuery, type RouteProps } from '../../router.ts';
import { useSession } from '../../session.ts';
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
  const search = useSearch(filters, area, signedIn);
  const filterCount = activeFilterCount(query);

  function onMove(next: Area | null, v: View | null) {
    setArea(next);
    if (v) setQuery({ map: mapViewToUrl(v) }, { replace: true });
  }

  return (
    <div class="search-screen">
      <h1 class="visually-hidden">{t('nav.map')}</h1>
      <div class="toolbar">
        <SearchBox
          value={query.get('q') ?? ''}
          kind={kind}
          onSearch={(q) => setQuery({ q: q || null })}
          onPlace={(place) => {
            void api.GET('/v1/places/{slug}', { params: { path: { slug: place.slug } } }).then(({ data }) => {
              const c = data?.center;
              const zoom =
                place.level === 'district' || place.level === 'area' ? 13 : place.level === 'region' ? 10 : 6;
              setQuery({ q: place.name, ...(c ? { map: mapViewToUrl({ zoom, lat: c.lat, lon: c.lon }) } : {}) });
            });
          }}
        />
        <div class="kinds" role="group" aria-label={t('web.kind_label')}>
          {KINDS.map((k) => (
            <button
              type="button"
              key={k}
              aria-pressed={kind === k}
              onClick={() => setQuery({ kind: k === 'all' ? null : k })}
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
          {t('search.show_results', { count: search.count ?? '…' })}
        </button>
      </div>
      <div class="panes">
        {showFilters && <FiltersPanel query={query} count={search.count} onClose={() => setShowFilters(false)} />}
        <Feed
          items={search.items}
          hasMore={search.hasMore}
          loading={search.loadingFeed}
          error={search.error}
          currency={query.get('currency')}
          loadMore={search.loadMore}
        />
        <MapView
          view={view}
          data={search.map}
          onMove={onMove}
          onPick={(id) => document.querySelector(`.card[data-id="${id}"]`)?.scrollIntoView({ block: 'center' })}
        />
      </div>
    </div>
  );
}
