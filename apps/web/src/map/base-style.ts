import type { StyleSpecification } from 'maplibre-gl';
import { feature } from 'topojson-client';
import countriesUrl from 'world-atlas/countries-50m.json?url';
import { api } from '../api.ts';
import { appConfig } from '../config.ts';

/**
 * The base map. With a map provider configured (`MAP_UPSTREAM_URL`), its style through the API's
 * proxy (`/v1/map/style.json`). Without one (the default, and any machine without internet), an
 * offline style of the page's own: land and country borders from Natural Earth (the `world-atlas`
 * package, shipped with the page), no glyphs or tiles from outside. Place names are drawn by the
 * map view from the API's places (`/v1/places`), as HTML labels, since the offline style has no fonts.
 */
export async function baseStyle(): Promise<{ style: StyleSpecification | string; offline: boolean }> {
  const probe = await api.GET('/v1/map/{path}', { params: { path: { path: 'style.json' } } }).catch(() => null);
  if (probe?.response.ok && appConfig) return { style: appConfig.map.style_url, offline: false };
  return { style: await offlineStyle(), offline: true };
}

async function offlineStyle(): Promise<StyleSpecification> {
  type Topo = Parameters<typeof feature>[0];
  const topo = (await (await fetch(countriesUrl)).json()) as Topo;
  const countries = feature(topo, topo.objects.countries as Parameters<typeof feature>[1]);
  return {
    version: 8,
    sources: {
      countries: { type: 'geojson', data: countries, attribution: 'Natural Earth' },
    },
    layers: [
      { id: 'sea', type: 'background', paint: { 'background-color': '#b9d7ea' } },
      { id: 'land', type: 'fill', source: 'countries', paint: { 'fill-color': '#f3f0e6' } },
      { id: 'borders', type: 'line', source: 'countries', paint: { 'line-color': '#a39e8f', 'line-width': 1 } },
    ],
  };
}
