import path from 'node:path';
import { aliasName } from '@guest/catalog';
import { repoRoot, type Config } from '@guest/config';
import type { Database } from '@guest/db';
import type { CursorCodec } from '@guest/http-kit';
import type { Clock } from '@guest/runtime';
import { createResultCache, type ResultCache, type SearchEngine } from '@guest/search-engine';
import { createClusterTiles, type ClusterTiles } from './search/cluster-tiles.ts';
import { createAmenitiesService, type AmenitiesService } from './amenities/service.ts';
import { createCategoriesService, type CategoriesService } from './categories/service.ts';
import { createClientConfigService, type ClientConfigService } from './config/service.ts';
import { createCurrenciesService, type CurrenciesService } from './currencies/service.ts';
import { createDemoPhotosService, type DemoPhotosService } from './demo-photos/service.ts';
import { createEventsService, type EventsService } from './events/service.ts';
import { createFxService, type FxService } from './fx/service.ts';
import { createI18nService, type I18nService } from './i18n/service.ts';
import { createListingsService, type ListingsService } from './listings/service.ts';
import { MapUpstream } from './map/upstream.ts';
import { createNodesService, type NodesService } from './nodes/service.ts';
import { createPlacesService, type PlacesService } from './places/service.ts';
import { createSearchService, type SearchService } from './search/service.ts';
import { createQueryUnderstanding } from './query-understanding/service.ts';

// The schemas requests are parsed with before they reach a service: a bench or script that calls
// a service directly parses its input exactly as the route does.
export { countParams, feedParams, mapParams, PriceRangeParams, SuggestParams } from './search/params.ts';
export { calendarParams, eventFeedParams, eventMapParams, upcomingParams } from './events/params.ts';

/** What the read API's services are made of: the process's connections, its clock and cursor codec. */
export interface ReadServiceDeps {
  config: Config;
  database: Database;
  engine: SearchEngine;
  clock: Clock;
  cursors: CursorCodec;
}

/** Every service of the read API: route handlers, benches and scripts reach them only through this. */
export interface ReadServices {
  search: SearchService;
  /** The listing page (`/v1/listings/{id}`). */
  listings: ListingsService;
  events: EventsService;
  places: PlacesService;
  categories: CategoriesService;
  amenities: AmenitiesService;
  currencies: CurrenciesService;
  fx: FxService;
  clientConfig: ClientConfigService;
  nodes: NodesService;
  i18n: I18nService;
  /** The map provider behind `/v1/map/*`. */
  map: MapUpstream;
  /** The demo catalog's photos, made and kept on disk (`/demo-photos/v1/*`). */
  demoPhotos: DemoPhotosService;
  /** Engine answers of the search routes, shared for a short while (hit rate and staleness for `/metrics`). */
  searchCache: ResultCache;
  clusterTiles: ClusterTiles;
  /** Lets go of what the services hold open (the map provider's connection pool). */
  close(): Promise<void>;
}

/** What every route module of the read API is registered with. */
export interface ReadRouteOptions {
  services: ReadServices;
  /** Settings the routes' schemas and headers are built from (limits, cache lifetimes). */
  config: Config;
}

/** Makes every service once; index names, caches and the FX table are shared between them. */
export function createReadServices(deps: ReadServiceDeps): ReadServices {
  const { config, database, engine, clock, cursors } = deps;
  const db = database.db;
  const indices = {
    listings: aliasName(config.INDEX_PREFIX, 'listings'),
    places: aliasName(config.INDEX_PREFIX, 'places'),
    events: aliasName(config.INDEX_PREFIX, 'events'),
  };
  const cacheTtlS = config.REFERENCE_LIST_CACHE_TTL_S;
  // Made in the order their checks of the settings and files should report a problem.
  const i18n = createI18nService({ dir: path.resolve(repoRoot, config.I18N_DIR) });
  const map = new MapUpstream(config.MAP_UPSTREAM_URL, config.MAP_UPSTREAM_TIMEOUT_MS);
  const fx = createFxService({ db });
  const currencies = createCurrenciesService({ db });
  const clientConfig = createClientConfigService({ config, db, currencies });
  const understanding = createQueryUnderstanding({ engine, placesIndex: indices.places, db, cacheTtlS });
  const searchCache = createResultCache(engine, {
    ttlMs: config.SEARCH_CACHE_TTL_MS,
    maxEntries: config.SEARCH_CACHE_MAX_ENTRIES,
    pollMs: config.SEARCH_CACHE_GENERATION_POLL_MS,
    indices: [indices.listings, indices.places],
  });
  const amenities = createAmenitiesService({ db, cacheTtlS });
  const categories = createCategoriesService({ db, engine, indices, cacheTtlS });
  const clusterTiles = createClusterTiles({
    ttlMs: config.SEARCH_CACHE_TTL_MS,
    maxTiles: config.SEARCH_CLUSTER_TILES_MAX,
    generation: () => searchCache.currentGeneration(),
  });
  return {
    search: createSearchService({
      engine,
      cache: searchCache,
      clusterTiles,
      indices,
      fx,
      cursors,
      config,
      database,
      understanding,
      categories,
    }),
    listings: createListingsService({ engine, indices, fx, amenities, i18n, clock, config, database }),
    events: createEventsService({ engine, index: indices.events, cursors, clock, config, understanding }),
    places: createPlacesService({ engine, indices, clock }),
    categories,
    amenities,
    currencies,
    fx,
    clientConfig,
    nodes: createNodesService({ db }),
    i18n,
    map,
    demoPhotos: createDemoPhotosService({ dir: path.resolve(repoRoot, config.DEMO_PHOTOS_DIR) }),
    searchCache,
    clusterTiles,
    close: async () => {
      searchCache.close();
      await map.close();
    },
  };
}
