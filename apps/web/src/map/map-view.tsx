import type { Map as MapLibreMap, Marker } from 'maplibre-gl';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { appConfig } from '../config.ts';
import { money } from '../format.ts';
import { useLang, useT } from '../i18n.ts';
import { bboxAround, type MapView as View } from '../screens/search/filters.ts';
import type { Area, MapAnswer } from '../screens/search/use-search.ts';

interface Props {
  /** Where the map should be (the URL's `map=`, else the server's start view). */
  view: View;
  data: MapAnswer | null;
  /** The visible area after each move (null when the map cannot be shown: no WebGL). */
  onMove(area: Area | null, view: View | null): void;
  /** A point marker was chosen. */
  onPick?(id: number): void;
  /**
   * Load MapLibre and draw the map (from the first time it is true). Before, the area the map
   * will show is reported from its box, so that the search does not wait for the map.
   */
  start: boolean;
}

const near = (a: View, b: View) =>
  Math.abs(a.lat - b.lat) < 1e-4 && Math.abs(a.lon - b.lon) < 1e-4 && Math.abs(a.zoom - b.zoom) < 0.01;

/**
 * The MapLibre map (loaded on demand, outside the page's own bundle). Clusters and points of
 * `/v1/search/map` are HTML markers (they need no fonts, so they show on the offline base map).
 */
export function MapView({ view, data, onMove, onPick, start }: Props) {
  const t = useT();
  const el = useRef<HTMLDivElement>(null);
  const mapRef = useRef<MapLibreMap | null>(null);
  const libRef = useRef<typeof import('maplibre-gl') | null>(null);
  const markers = useRef<Marker[]>([]);
  const firstRender = useRef(false);
  const [failed, setFailed] = useState(false);
  const [offline, setOffline] = useState(false);
  // Markers are drawn once the map has loaded: answers may come before it (searched ahead).
  const [ready, setReady] = useState(false);
  // The offline base map has no names of its own: the catalog's places are written on it.
  const [labelled, setLabelled] = useState(false);
  const lang = useLang();
  const moveRef = useRef(onMove);
  moveRef.current = onMove;

  // The area searched before the map is drawn (its own view follows once it has loaded).
  const estimate = useRef<Area | null>(null);
  useEffect(() => {
    const box = el.current?.getBoundingClientRect();
    if (box && box.width > 0 && box.height > 0) {
      estimate.current = { bbox: bboxAround(view, box.width, box.height), zoom: Math.floor(view.zoom) };
      moveRef.current(estimate.current, null);
    }
  }, []);

  // Once started, the map stays (hidden while a phone shows the list).
  const [go, setGo] = useState(start);
  useEffect(() => {
    if (start) setGo(true);
  }, [start]);
  useEffect(() => {
    if (!go) return;
    let map: MapLibreMap | null = null;
    let stopped = false;
    let reported = estimate.current;
    void (async () => {
      performance.mark('map-start');
      const [lib, workerUrl, base] = await Promise.all([
        import('maplibre-gl'),
        import('maplibre-gl/dist/maplibre-gl-worker.mjs?url').then((m) => m.default),
        import('./base-style.ts').then((m) => m.baseStyle()),
        import('maplibre-gl/dist/maplibre-gl.css'),
      ]);
      if (stopped || !el.current) return;
      lib.setWorkerUrl(new URL(workerUrl, window.location.href).href);
      libRef.current = lib;
      setOffline(base.offline);
      map = new lib.Map({
        container: el.current,
        style: base.style,
        center: [view.lon, view.lat],
        zoom: view.zoom,
        minZoom: appConfig?.map.min_zoom ?? 2,
        maxZoom: appConfig?.map.max_zoom ?? 18,
        attributionControl: { compact: true },
        dragRotate: false,
        // The map's own words (its canvas is the "Map" region, its buttons) from the dictionary too.
        locale: {
          'Map.Title': t('nav.map'),
          'Marker.Title': t('web.map.marker'),
          'NavigationControl.ZoomIn': t('web.map.zoom_in'),
          'NavigationControl.ZoomOut': t('web.map.zoom_out'),
          'AttributionControl.ToggleAttribution': t('web.map.attribution'),
        },
      });
      map.addControl(new lib.NavigationControl({ showCompass: false }), 'top-right');
      mapRef.current = map;
      const report = () => {
        const b = map!.getBounds();
        const bbox = [b.getWest(), b.getSouth(), b.getEast(), b.getNorth()]
          .map((n, i) => Math.max(i % 2 ? -90 : -180, Math.min(i % 2 ? 90 : 180, n)).toFixed(5))
          .join(',');
        const c = map!.getCenter();
        const zoom = map!.getZoom();
        el.current?.setAttribute('data-zoom', String(Math.floor(zoom)));
        // Within a pixel of the area already searched (the estimate before the map was drawn): the same area.
        const pixel = 360 / (512 * 2 ** zoom);
        const same =
          reported?.zoom === Math.floor(zoom) &&
          reported.bbox.split(',').every((n, i) => Math.abs(Number(n) - Number(bbox.split(',')[i])) < pixel);
        reported = same ? reported : { bbox, zoom: Math.floor(zoom) };
        moveRef.current(reported, { zoom, lat: c.lat, lon: c.lng });
      };
      map.on('moveend', report);
      map.once('load', () => {
        performance.mark('map-loaded');
        report();
        setReady(true);
        if (base.offline) {
          void import('./base-style.ts')
            .then((m) => m.offlineCountries())
            .then((data) => {
              void (map?.getSource('countries') as import('maplibre-gl').GeoJSONSource | undefined)?.setData(data);
              // Drawn with the next frame: tests and screenshots wait for it.
              void map?.once('idle', () => el.current?.setAttribute('data-land', 'true'));
            });
          setLabelled(true);
        }
      });
    })().catch((err: unknown) => {
      console.error('the map could not start', err);
      setFailed(true);
      moveRef.current(null, null);
    });
    return () => {
      stopped = true;
      map?.remove();
      mapRef.current = null;
    };
  }, [go]);

  // The URL moved the map (back button, a chosen place): follow it.
  useEffect(() => {
    const map = mapRef.current;
    if (!map) return;
    const c = map.getCenter();
    if (!near(view, { zoom: map.getZoom(), lat: c.lat, lon: c.lng }))
      map.jumpTo({ center: [view.lon, view.lat], zoom: view.zoom });
  }, [view.lat, view.lon, view.zoom]);

  useEffect(() => {
    const map = mapRef.current;
    const lib = libRef.current;
    if (!map || !lib) return;
    for (const m of markers.current) m.remove();
    markers.current = [];
    if (!data) return;
    for (const c of data.clusters) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'cluster';
      b.textContent = String(c.count);
      b.setAttribute('aria-label', t('web.map.cluster', { count: c.count }));
      const size = Math.min(56, 26 + Math.log10(c.count + 1) * 10);
      b.style.width = b.style.height = `${size}px`;
      b.addEventListener('click', () => {
        const [w, s, e, n] = c.bbox as [number, number, number, number];
        if (c.bbox?.length === 4 && (w !== e || s !== n)) map.fitBounds([w, s, e, n], { padding: 40, maxZoom: 16 });
        else map.easeTo({ center: [c.lon, c.lat], zoom: map.getZoom() + 2 });
      });
      markers.current.push(new lib.Marker({ element: b }).setLngLat([c.lon, c.lat]).addTo(map));
    }
    for (const p of data.points) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = `pin kind-${p.kind}`;
      b.dataset.id = String(p.id);
      b.textContent = money(p.price_minor, p.currency);
      b.setAttribute('aria-label', `${t(`kind.${p.kind}`)}: ${b.textContent}`);
      b.addEventListener('click', () => onPick?.(p.id));
      markers.current.push(new lib.Marker({ element: b }).setLngLat([p.lon, p.lat]).addTo(map));
    }
    if (!firstRender.current) {
      firstRender.current = true;
      performance.mark('map-first-markers');
      performance.measure('map-first-render', undefined, 'map-first-markers');
    }
  }, [data, ready]);

  // The offline map's place names and the map's own words, in the interface language: drawn
  // again when it changes (the markers follow their data, asked again in the new language).
  useEffect(() => {
    const map = mapRef.current;
    const lib = libRef.current;
    if (!map || !lib || !ready) return;
    const words: Array<[string, string, string]> = [
      ['.maplibregl-ctrl-zoom-in', 'web.map.zoom_in', 'title'],
      ['.maplibregl-ctrl-zoom-out', 'web.map.zoom_out', 'title'],
      ['.maplibregl-ctrl-attrib-button', 'web.map.attribution', 'title'],
    ];
    for (const [selector, key] of words) {
      const button = el.current?.querySelector(selector);
      button?.setAttribute('title', t(key));
      button?.setAttribute('aria-label', t(key));
    }
    map.getCanvas().setAttribute('aria-label', t('nav.map'));
    if (!labelled) return;
    const abort = new AbortController();
    let placed: Marker[] = [];
    placeLabels(lib, map, lang, abort.signal)
      .then((m) => (placed = m))
      .catch(() => undefined); // left for a newer language, or the map without names
    return () => {
      abort.abort();
      for (const m of placed) m.remove();
    };
  }, [ready, labelled, lang]);

  if (failed) return <div class="map map-failed">{t('map.unavailable')}</div>;
  return (
    <div class="map-wrap">
      <div ref={el} class="map" data-offline={offline ? 'true' : 'false'} />
      {data?.truncated && (
        <p class="map-more" role="status">
          {t('web.map.more', { count: Math.max(0, data.total - data.points.length) })}
        </p>
      )}
    </div>
  );
}

/** Names of the catalog's places on the offline map, by level: regions from afar, districts close up. */
async function placeLabels(
  lib: typeof import('maplibre-gl'),
  map: MapLibreMap,
  lang: string,
  signal: AbortSignal,
): Promise<Marker[]> {
  const { data } = await api.GET('/v1/places', { params: { query: { lang: lang as 'en' } }, signal });
  if (signal.aborted) return [];
  const placed: Marker[] = [];
  for (const p of data ?? []) {
    if (!p.center) continue;
    const label = document.createElement('span');
    label.className = `place-label level-${p.level}`;
    label.lang = lang;
    label.textContent = p.name;
    label.setAttribute('aria-hidden', 'true');
    placed.push(new lib.Marker({ element: label }).setLngLat([p.center.lon, p.center.lat]).addTo(map));
  }
  return placed;
}
