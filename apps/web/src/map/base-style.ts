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
  return { style: offlineStyle(), offline: true };
}

/** Land and borders for the offline style's `countries` source (loaded after the map starts). */
export async function offlineCountries(): Promise<GeoJSON.GeoJSON> {
  type Topo = Parameters<typeof feature>[0];
  const topo = (await (await fetch(countriesUrl)).json()) as Topo;
  return feature(topo, topo.objects.countries as Parameters<typeof feature>[1]);
}

/**
 * The offline style starts with an empty `countries` source, filled by `offlineCountries()`: the
 * map, and the searches that wait for its first view, need not wait for the coastlines.
 */
function offlineStyle(): StyleSpecification {
  return {
    version: 8,
    sources: {
      countries: { type: 'geojson', data: { type: 'FeatureCollection', features: [] }, attribution: 'Natural Earth' },
    },
    layers: [
      { id: 'sea', type: 'background', paint: { 'background-color': '#b9d7ea' } },
      { id: 'land', type: 'fill', source: 'countries', paint: { 'fill-color': '#f3f0e6' } },
      { id: 'borders', type: 'line', source: 'countries', paint: { 'line-color': '#a39e8f', 'line-width': 1 } },
    ],
  };
}
