import type { FastifyInstance } from 'fastify';
import type { AppPlugin } from '@guest/http-kit';
import { createReadServices, type ReadRouteOptions } from './services.ts';
import { registerCacheMetrics } from './search/cache-metrics.ts';
import { registerAnswerCache } from './search/answer-cache.ts';
import i18n from './routes/v1/i18n.ts';
import i18nLanguages from './routes/v1/i18n/languages.ts';
import mapResource from './routes/v1/map/[...path].ts';
import eventCategories from './routes/v1/events/categories.ts';
import eventsCalendar from './routes/v1/events/calendar.ts';
import eventsUpcoming from './routes/v1/events/upcoming.ts';
import eventsFeed from './routes/v1/events/feed.ts';
import eventsMap from './routes/v1/events/map.ts';
import eventPage from './routes/v1/events/[slug].ts';
import places from './routes/v1/places.ts';
import placesPopular from './routes/v1/places/popular.ts';
import placeCard from './routes/v1/places/[slug].ts';
import categories from './routes/v1/categories.ts';
import amenities from './routes/v1/amenities.ts';
import searchListings from './routes/v1/search/listings.ts';
import searchMap from './routes/v1/search/map.ts';
import searchCount from './routes/v1/search/count.ts';
import searchPriceRange from './routes/v1/search/price-range.ts';
import searchFilterValues from './routes/v1/search/filter-values.ts';
import searchSuggest from './routes/v1/search/suggest.ts';
import listingPage from './routes/v1/listings/[id].ts';
import nodes from './routes/v1/nodes.ts';
import clientConfig from './routes/v1/config.ts';
import currencies from './routes/v1/currencies.ts';
import fxRates from './routes/v1/fx/rates.ts';
import demoPhoto from './routes/demo-photos/v1/[file].ts';

/**
 * Every route module of the read API, each a Fastify plugin taking `ReadRouteOptions`. Files
 * under `routes/` mirror the URL they serve (`[slug]` a path parameter, `[...path]` the rest).
 * A static segment always wins over a parameter (`/v1/places/popular` over `/v1/places/:slug`),
 * whatever the order here.
 */
const ROUTES = [
  i18n,
  i18nLanguages,
  mapResource,
  eventCategories,
  eventsCalendar,
  eventsUpcoming,
  eventsFeed,
  eventsMap,
  eventPage,
  places,
  placesPopular,
  placeCard,
  categories,
  amenities,
  searchListings,
  searchMap,
  searchCount,
  searchPriceRange,
  searchFilterValues,
  searchSuggest,
  listingPage,
  nodes,
  clientConfig,
  currencies,
  fxRates,
  demoPhoto,
];

/**
 * The read API: search, map, suggest, events and reference data, answered from the index and the
 * catalog tables. The services are made once here, from the process's runtime; every route module
 * is registered the same way, with them.
 */
async function readApiPlugin(app: FastifyInstance): Promise<void> {
  const { config, database, search, clock } = app.runtime;
  const services = createReadServices({ config, database, engine: search, clock, cursors: app.cursors });
  app.addHook('onClose', () => services.close());
  const answers = registerAnswerCache(app, {
    ttlMs: config.SEARCH_CACHE_TTL_MS,
    maxBytes: config.SEARCH_RESPONSE_CACHE_MAX_MB * 1024 * 1024,
    generation: () => services.searchCache.currentGeneration(),
  });
  registerCacheMetrics(app.metrics, services.searchCache, answers, services.clusterTiles);
  const opts: ReadRouteOptions = { services, config };
  for (const route of ROUTES) await app.register(route, opts);
}

export const readApi: AppPlugin = {
  name: 'read-api',
  plugin: readApiPlugin,
  tags: [
    { name: 'search', description: 'Listings search: feed, map, counts, price range, suggestions, listing pages.' },
    { name: 'events', description: 'The events listing: feed, calendar strip, upcoming, map, event pages.' },
    { name: 'map', description: 'Map resources (style, tiles, fonts, sprites) through the API.' },
    { name: 'reference', description: 'Reference data: places, categories, amenities, currencies, configuration.' },
    { name: 'localization', description: 'Languages and interface texts.' },
  ],
};
