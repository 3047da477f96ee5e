import type { Map as MapLibreMap } from 'maplibre-gl';
import { useEffect, useRef, useState } from 'preact/hooks';
import { appConfig } from '../../config.ts';
import { useT } from '../../i18n.ts';

/**
 * How close the venue map starts: a few streets around the venue; the offline base map has land
 * and borders only (Natural Earth), which say something from further away.
 */
const VENUE_ZOOM = 14;
const OFFLINE_ZOOM = 9;

/**
 * A small map of the venue with one marker: MapLibre and the base style (the search map's, offline
 * when no provider is configured) loaded on demand, so only the event page pays for them and the
 * page's own bundle stays as it was.
 */
export function VenueMap({ point, label }: { point: { lat: number; lon: number }; label: string }) {
  const t = useT();
  const el = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    let map: MapLibreMap | null = null;
    let stopped = false;
    void (async () => {
      const [lib, workerUrl, base] = await Promise.all([
        import('maplibre-gl'),
        import('maplibre-gl/dist/maplibre-gl-worker.mjs?url').then((m) => m.default),
        import('../../map/base-style.ts').then((m) => m.baseStyle()),
        import('maplibre-gl/dist/maplibre-gl.css'),
      ]);
      if (stopped || !el.current) return;
      lib.setWorkerUrl(new URL(workerUrl, window.location.href).href);
      map = new lib.Map({
        container: el.current,
        style: base.style,
        center: [point.lon, point.lat],
        zoom: Math.min(base.offline ? OFFLINE_ZOOM : VENUE_ZOOM, appConfig?.map.max_zoom ?? 18),
        attributionControl: { compact: true },
        dragRotate: false,
        // The page scrolls over the map; the buttons and a drag move it.
        scrollZoom: false,
        locale: {
          'Map.Title': t('web.events.venue_map'),
          'Marker.Title': label,
          'NavigationControl.ZoomIn': t('web.map.zoom_in'),
          'NavigationControl.ZoomOut': t('web.map.zoom_out'),
          'AttributionControl.ToggleAttribution': t('web.map.attribution'),
        },
      });
      map.addControl(new lib.NavigationControl({ showCompass: false }), 'top-right');
      const pin = document.createElement('span');
      pin.className = 'venue-pin';
      pin.setAttribute('role', 'img');
      pin.setAttribute('aria-label', label);
      new lib.Marker({ element: pin, anchor: 'bottom' }).setLngLat([point.lon, point.lat]).addTo(map);
      map.once('load', () => {
        if (base.offline) {
          void import('../../map/base-style.ts')
            .then((m) => m.offlineCountries())
            .then((data) => {
              void (map?.getSource('countries') as import('maplibre-gl').GeoJSONSource | undefined)?.setData(data);
              void map?.once('idle', () => el.current?.setAttribute('data-land', 'true'));
            });
        }
        setReady(true);
      });
    })().catch((err: unknown) => {
      console.error('the venue map could not start', err);
      setFailed(true);
    });
    return () => {
      stopped = true;
      map?.remove();
    };
  }, [point.lat, point.lon]);

  if (failed) return <p class="map-failed venue-map">{t('map.unavailable')}</p>;
  return (
    <div
      ref={el}
      // The map's canvas is the "Map of the venue" region (MapLibre's `Map.Title`).
      class="venue-map"
      data-ready={ready ? 'true' : 'false'}
      data-lat={point.lat}
      data-lon={point.lon}
    />
  );
}
