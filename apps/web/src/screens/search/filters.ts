import { SEARCH_FILTERS, type SearchFilterSpec, type SearchQuery } from '@guest/client';

/**
 * The search filters as the URL carries them: the API's own parameter names (spec 4.7), so that
 * a link reopens the same view and the page's URL reads like the API query it sends.
 */
export type FeedQuery = SearchQuery;
export type Kind = 'all' | 'stay' | 'experience' | 'service' | 'transport' | 'food';
export const KINDS: Kind[] = ['all', 'stay', 'experience', 'service', 'transport', 'food'];

/** Parameters the page sets otherwise: the area from the map, the page from the feed. */
const NOT_IN_URL = ['bbox', 'near', 'radius_m', 'limit', 'cursor'] as const;
export type FilterName = Exclude<keyof SearchQuery, (typeof NOT_IN_URL)[number]>;

/**
 * Every filter the page sets, with its type and the kinds it applies to: the SDK's table of the
 * feed's parameters (generated from the API's document), so a filter the API gains is here too.
 */
export const FILTERS = Object.fromEntries(
  Object.entries(SEARCH_FILTERS).filter(([name]) => !(NOT_IN_URL as readonly string[]).includes(name)),
) as Record<FilterName, SearchFilterSpec>;

/** Whether the filter applies to the kind: a filter of some kinds only applies with one of them chosen. */
export function appliesTo(name: FilterName, kind: Kind): boolean {
  const kinds = FILTERS[name].kinds as readonly Kind[] | undefined;
  return !kinds || kinds.includes(kind);
}

export function kindOf(query: URLSearchParams): Kind {
  const k = query.get('kind');
  return (KINDS as string[]).includes(k ?? '') ? (k as Kind) : 'all';
}

/**
 * The API filters of the URL: values of the wrong shape, and kind-specific filters of another
 * kind, are left out (the API would refuse or ignore them).
 */
export function filtersFromUrl(query: URLSearchParams): FeedQuery {
  const kind = kindOf(query);
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(FILTERS) as Array<[FilterName, SearchFilterSpec]>) {
    const raw = query.get(name);
    if (raw === null || raw === '') continue;
    if (!appliesTo(name, kind)) continue;
    switch (spec.type) {
      case 'text':
        out[name] = raw;
        break;
      case 'date':
        if (/^\d{4}-\d{2}-\d{2}$/.test(raw)) out[name] = raw;
        break;
      case 'int':
        if (/^\d{1,12}$/.test(raw)) out[name] = Number(raw);
        break;
      case 'number':
        if (/^\d+(\.\d+)?$/.test(raw)) out[name] = Number(raw);
        break;
      case 'bool':
        if (raw === 'true' || raw === 'false') out[name] = raw === 'true';
        break;
      case 'list':
        out[name] = raw.split(',').filter(Boolean);
        break;
      case 'intlist':
        out[name] = raw
          .split(',')
          .filter((v) => /^\d{1,10}$/.test(v))
          .map(Number);
        break;
      default:
        break;
    }
  }
  if (out.kind === 'all') delete out.kind;
  if (out.sort === 'relevance') delete out.sort;
  return out as FeedQuery;
}

/** How many filters beyond kind, text and currency are set (the badge on the filters button). */
export function activeFilterCount(query: URLSearchParams): number {
  const f = filtersFromUrl(query) as Record<string, unknown>;
  return Object.keys(f).filter((k) => !['kind', 'q', 'currency', 'sort'].includes(k)).length;
}

/** The map position of the URL, `map=zoom/lat/lon` (as map sites write it). */
export interface MapView {
  zoom: number;
  lat: number;
  lon: number;
}

export function mapViewFromUrl(query: URLSearchParams): MapView | null {
  const m = /^(\d{1,2}(?:\.\d+)?)\/(-?\d{1,2}(?:\.\d+)?)\/(-?\d{1,3}(?:\.\d+)?)$/.exec(query.get('map') ?? '');
  if (!m) return null;
  const [zoom, lat, lon] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (zoom > 22 || Math.abs(lat) > 85 || Math.abs(lon) > 180) return null;
  return { zoom, lat, lon };
}

export function mapViewToUrl(v: MapView): string {
  return `${v.zoom.toFixed(2)}/${v.lat.toFixed(5)}/${v.lon.toFixed(5)}`;
}

/** The handle position p (0..1) of a price on the quadratic scale of the histogram: price = max · p². */
export function positionOf(price: number, max: number): number {
  return max > 0 ? Math.min(1, Math.sqrt(Math.max(0, price) / max)) : 0;
}

export function priceAt(p: number, max: number): number {
  return Math.round(max * p * p);
}

/**
 * The area a map of `width` × `height` CSS pixels shows around `view` (Web Mercator, 512-pixel
 * tiles, as MapLibre draws it), as the API's `bbox`, to start searching before the map is drawn.
 */
export function bboxAround(view: MapView, width: number, height: number): string {
  const world = 512 * 2 ** view.zoom;
  const x = ((view.lon + 180) / 360) * world;
  const sin = Math.sin((view.lat * Math.PI) / 180);
  const y = (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)) * world;
  const lon = (px: number) => (px / world) * 360 - 180;
  const lat = (py: number) => (Math.atan(Math.sinh(Math.PI * (1 - (2 * py) / world))) * 180) / Math.PI;
  const clamp = (n: number, lim: number) => Math.max(-lim, Math.min(lim, n));
  return [
    clamp(lon(x - width / 2), 180),
    clamp(lat(y + height / 2), 90),
    clamp(lon(x + width / 2), 180),
    clamp(lat(y - height / 2), 90),
  ]
    .map((n) => n.toFixed(5))
    .join(',');
}
