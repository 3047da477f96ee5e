import { BASE_CURRENCY, epochDay, todayIn, type ContentLanguage, type PlaceDocument } from '@guest/catalog';
import type { Config } from '@guest/config';
import type { Database } from '@guest/db';
import { errors } from '@guest/http-kit';
import type { Clock } from '@guest/runtime';
import type { Dsl, SearchEngine } from '@guest/search-engine';
import type { AmenitiesService } from '../amenities/service.ts';
import type { I18nService } from '../i18n/service.ts';
import { placesQuery } from '../places/query.ts';
import { favoriteIds } from '../search/favorites.ts';
import type { FxTableSource } from '../search/service.ts';
import { PAGE_SOURCE, toListingPage, type PageSource } from './page.ts';
import type { ListingPageQuery } from './params.ts';
import type { ListingPageBody } from './schemas.ts';
import { calendarWindow } from './stay.ts';

/** What the listings service needs, given by whoever builds it (the app, a bench, a test). */
export interface ListingsServiceDeps {
  engine: SearchEngine;
  indices: { listings: string; places: string };
  fx: FxTableSource;
  amenities: Pick<AmenitiesService, 'named'>;
  i18n: Pick<I18nService, 'dictionary'>;
  clock: Clock;
  config: Pick<Config, 'LISTING_CALENDAR_DAYS'>;
  /** Postgres: the signed-in guest's favorite overlays the page. */
  database: Pick<Database, 'pool'>;
}

export interface ListingViewer {
  lang: ContentLanguage;
  accountId?: string | null | undefined;
  /** The API's public base URL, before photo paths on its own origin. */
  base?: string | undefined;
}

export type ListingsService = ReturnType<typeof createListingsService>;

/** A `city_only` listing's place: the bounds of the located listings in it. */
function areaRequest(placeId: number): Dsl {
  return {
    size: 0,
    query: { bool: { filter: [{ term: { place_path_ids: placeId } }, { term: { has_point: true } }] } },
    aggs: { area: { geo_bounds: { field: 'location' } } },
  };
}

interface Bounds {
  top_left: { lat: number; lon: number };
  bottom_right: { lat: number; lon: number };
}

/** Half the least width and height of a `city_only` area, in degrees (about 1 km): a place with one point is no box. */
const AREA_MIN_HALF_DEG = 0.01;

/**
 * `[minLon, minLat, maxLon, maxLat]` around the place's centre and the bounds of its located
 * listings, at least `2 × AREA_MIN_HALF_DEG` wide and high; null when neither is known.
 */
function areaOf(bounds: Bounds | undefined, centre: { lat: number; lon: number } | null) {
  const lons = [bounds?.top_left.lon, bounds?.bottom_right.lon, centre?.lon].filter((v) => v !== undefined);
  const lats = [bounds?.top_left.lat, bounds?.bottom_right.lat, centre?.lat].filter((v) => v !== undefined);
  if (!lons.length) return null;
  const span = (vs: number[]): [number, number] => {
    const [lo, hi] = [Math.min(...vs), Math.max(...vs)];
    const mid = (lo + hi) / 2;
    return [Math.min(lo, mid - AREA_MIN_HALF_DEG), Math.max(hi, mid + AREA_MIN_HALF_DEG)];
  };
  const [minLon, maxLon] = span(lons);
  const [minLat, maxLat] = span(lats);
  return [minLon, minLat, maxLon, maxLat] as [number, number, number, number];
}

/**
 * The listing page of DESIGN.md section 7 (`GET /v1/listings/{id}`): the published listing from
 * the index, its place path, amenity and attribute names, the calendar of the coming days and,
 * when asked, the price of a stay; the signed-in guest's favorite from Postgres.
 */
export function createListingsService(deps: ListingsServiceDeps) {
  const { engine, indices } = deps;

  async function findListing(id: number): Promise<PageSource | null> {
    const res = await engine.search<PageSource>(indices.listings, {
      size: 1,
      query: { bool: { filter: [{ term: { id } }] } },
      _source: [...PAGE_SOURCE],
    });
    return res.hits[0]?._source ?? null;
  }

  return {
    /** The page of listing `id`; null when no published listing has it. 400 for dates outside the calendar. */
    async page(id: number, q: ListingPageQuery, viewer: ListingViewer): Promise<ListingPageBody | null> {
      const doc = await findListing(id);
      if (!doc) return null;
      const [placeHits, fx, amenities, favorites, area] = await Promise.all([
        engine.search<PlaceDocument>(indices.places, placesQuery({ ids: doc.place_path_ids })),
        deps.fx.table(),
        deps.amenities.named(doc.amenities, viewer.lang),
        viewer.accountId ? favoriteIds(deps.database.pool, viewer.accountId, [doc.id]) : null,
        doc.location_mode === 'city_only'
          ? engine.search(indices.listings, areaRequest(doc.place.id))
          : Promise.resolve(null),
      ]);
      const places = placeHits.hits.map((h) => h._source);
      const path = doc.place_path_ids.map((pid) => places.find((p) => p.id === pid)).filter((p) => p !== undefined);
      // The listing's days are its place's: the zone of the nearest place on its path that has one.
      const timezone = [...path].reverse().find((p) => p.timezone)?.timezone ?? 'UTC';
      const window = calendarWindow(todayIn(timezone, deps.clock.now()), deps.config.LISTING_CALENDAR_DAYS);
      let stay = null;
      if (q.date_from) {
        const to = q.date_to ?? calendarWindow(q.date_from, 1).to;
        if (q.date_from < window.from) {
          throw errors.validation('date_from', `date_from must not be before today (${window.from}).`, {
            reason: 'before_today',
          });
        }
        if (epochDay(to) > epochDay(window.to)) {
          throw errors.validation(q.date_to ? 'date_to' : 'date_from', `The stay must end by ${window.to}.`, {
            reason: 'beyond_calendar',
          });
        }
        stay = { from: q.date_from, to, guests: q.guests ?? 1 };
      }
      return toListingPage(doc, {
        lang: viewer.lang,
        strings: deps.i18n.dictionary(viewer.lang).strings,
        places,
        amenities,
        fx,
        currency: q.currency ?? BASE_CURRENCY,
        window,
        timezone,
        area: area ? areaOf(area.aggregations?.area?.bounds as Bounds | undefined, doc.place_center) : null,
        stay,
        favorites,
        base: viewer.base,
      });
    },
  };
}
