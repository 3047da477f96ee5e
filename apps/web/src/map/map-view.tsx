import type { Map as MapLibreMap, Marker } from 'maplibre-gl';
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { appConfig } from '../config.ts';
import { shownPrice } from '../format.ts';
import { useLang, useT } from '../i18n.ts';
import { bboxAround, type MapView as View } from '../screens/search/filters.ts';
import type { Area, MapAnswer } from '../screens/search/use-search.ts';
import { collapse, type Mark } from './collapse.ts';

interface Props {
  /** Where the map should be (the URL's `map=`, else the server's start view). */
  view: View;
  data: MapAnswer | null;
  /** The currency prices are shown in (the guest's choice; null: each listing's own). */
  currency: string | null;
  /** The listing whose pin stands out (its card is hovered or focused in the feed). */
  highlight?: number | null;
  /** The visible area after each move (null when the map cannot be shown: no WebGL). */
  onMove(area: Area | null, view: View | null): void;
  /** Point markers were chosen: one pin, or the pins of one spot the map cannot pull apart. */
  onPick?(ids: number[]): void;
  /**
   * Load MapLibre and draw the map (from the first time it is true). Before, the area the map
   * will show is reported from its box, so that the search does not wait for the map.
   */
  start: boolean;
  /** Shown over the map (the small card of a chosen pin). */
  children?: ComponentChildren;
}

const near = (a: View, b: View) =>
  Math.abs(a.lat - b.lat) < 1e-4 && Math.abs(a.lon - b.lon) < 1e-4 && Math.abs(a.zoom - b.zoom) < 0.01;

/**
 * The MapLibre map (loaded on demand, outside the page's own bundle). Clusters and points of
 * `/v1/search/map` are HTML markers (they need no fonts, so they show on the offline base map).
 */
export function MapView({ view, data, currency, highlight = null, onMove, onPick, start, children }: Props) {
  const t = useT();
  const el = useRef<HTMLDivElement>(null);
  const mapRef = useRef<MapLibreMap | null>(null);
  const libRef = useRef<typeof import('maplibre-gl') | null>(null);
  const markers = useRef<Marker[]>([]);
  /** Lays the markers of the current answer out again (after a zoom): set by the markers' effect. */
  const relayout = useRef<() => void>(() => undefined);
  /** The marker element that shows each listing (its pin, or the count marker it is collapsed into). */
  const shownFor = useRef(new Map<number, HTMLElement>());
  const pickRef = useRef(onPick);
  pickRef.current = onPick;
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
      map.on('zoomend', () => relayout.current());
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
    const clear = () => {
      for (const m of markers.current) m.remove();
      markers.current = [];
      shownFor.current.clear();
    };
    clear();
    relayout.current = () => undefined;
    if (!data) return;
    type Entry =
      | { type: 'cluster'; lon: number; lat: number; count: number; bbox: number[]; el: HTMLElement; ids: [] }
      | { type: 'pin'; lon: number; lat: number; count: 1; bbox: number[]; el: HTMLElement; ids: [number] };
    const zoomTo = (bbox: number[], ids: number[], lon: number, lat: number) => {
      const [w, s, e, n] = bbox as [number, number, number, number];
      const atMost = map.getMaxZoom();
      // Objects of one spot (or the deepest zoom reached): the map cannot pull them apart, the small card lists them.
      if (ids.length && (map.getZoom() >= atMost - 0.5 || (w === e && s === n))) pickRef.current?.(ids);
      else if (w !== e || s !== n) map.fitBounds([w, s, e, n], { padding: 60, maxZoom: atMost });
      else map.easeTo({ center: [lon, lat], zoom: map.getZoom() + 2 });
    };
    const countMarker = (count: number, onClick: () => void) => {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = 'cluster';
      b.textContent = String(count);
      b.setAttribute('aria-label', t('web.map.cluster', { count }));
      b.style.width = b.style.height = `${clusterSize(count)}px`;
      b.addEventListener('click', onClick);
      return b;
    };
    const entries: Entry[] = [];
    for (const c of data.clusters) {
      const bbox = c.bbox?.length === 4 ? c.bbox : [c.lon, c.lat, c.lon, c.lat];
      const el = countMarker(c.count, () => zoomTo(bbox, [], c.lon, c.lat));
      entries.push({ type: 'cluster', lon: c.lon, lat: c.lat, count: c.count, bbox, el, ids: [] });
    }
    for (const p of data.points) {
      const b = document.createElement('button');
      b.type = 'button';
      b.className = `pin kind-${p.kind}`;
      b.dataset.id = String(p.id);
      const price = shownPrice(p.price_minor, p.currency, currency);
      b.textContent = price.text;
      if (price.approximate) b.title = t('booking.price_approximate');
      b.setAttribute('aria-label', `${t(`kind.${p.kind}`)}: ${b.textContent}`);
      b.addEventListener('click', () => pickRef.current?.([p.id]));
      entries.push({
        type: 'pin',
        lon: p.lon,
        lat: p.lat,
        count: 1,
        bbox: [p.lon, p.lat, p.lon, p.lat],
        el: b,
        ids: [p.id],
      });
    }
    // Each pin's size as drawn (its price's width), measured once in the map's own styles.
    const sizes = new Map<HTMLElement, { w: number; h: number }>();
    const box = el.current;
    if (box) {
      const pins = entries.filter((e) => e.type === 'pin').map((e) => e.el);
      const holder = document.createElement('div');
      holder.style.cssText = 'position:absolute;visibility:hidden;left:0;top:0';
      holder.append(...pins);
      box.append(holder);
      for (const p of pins) sizes.set(p, { w: p.offsetWidth, h: p.offsetHeight });
      holder.remove();
    }
    // Markers that would overlap are collapsed into a count marker, laid out again at each zoom.
    const layout = () => {
      clear();
      const marks: Array<Mark<Entry>> = entries.map((e) => {
        const at = map.project([e.lon, e.lat]);
        const size = sizes.get(e.el) ?? { w: clusterSize(e.count), h: clusterSize(e.count) };
        return { item: e, x: at.x, y: at.y, w: size.w, h: size.h, count: e.count };
      });
      for (const g of collapse(marks, clusterSize)) {
        const ids = g.items.flatMap((e) => e.ids);
        let element: HTMLElement;
        let at: [number, number];
        if (g.items.length === 1) {
          const only = g.items[0]!;
          element = only.el;
          at = [only.lon, only.lat];
        } else {
          const bbox = [
            Math.min(...g.items.map((e) => e.bbox[0]!)),
            Math.min(...g.items.map((e) => e.bbox[1]!)),
            Math.max(...g.items.map((e) => e.bbox[2]!)),
            Math.max(...g.items.map((e) => e.bbox[3]!)),
          ];
          const centre = map.unproject([g.x, g.y]);
          at = [centre.lng, centre.lat];
          element = countMarker(g.count, () => zoomTo(bbox, ids, at[0], at[1]));
          element.dataset.ids = ids.join(',');
        }
        for (const id of ids) shownFor.current.set(id, element);
        markers.current.push(new lib.Marker({ element }).setLngLat(at).addTo(map));
      }
      el.current?.setAttribute('data-markers', String(markers.current.length));
      markHighlight();
    };
    relayout.current = layout;
    layout();
    if (!firstRender.current) {
      firstRender.current = true;
      performance.mark('map-first-markers');
      performance.measure('map-first-render', undefined, 'map-first-markers');
    }
    return clear;
  }, [data, ready, currency]);

  // The pin of the card the guest is on stands out (or the count marker it is collapsed into).
  const highlightRef = useRef(highlight);
  highlightRef.current = highlight;
  function markHighlight() {
    for (const e of el.current?.querySelectorAll('.active') ?? []) e.classList.remove('active');
    const id = highlightRef.current;
    if (id !== null) shownFor.current.get(id)?.classList.add('active');
  }
  useEffect(markHighlight, [highlight]);

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
      {children}
    </div>
  );
}

/** The diameter of a count marker: larger for more objects, within reason. */
function clusterSize(count: number): number {
  return Math.min(56, 26 + Math.log10(count + 1) * 10);
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
