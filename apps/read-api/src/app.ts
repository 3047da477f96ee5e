import type { FastifyInstance } from 'fastify';
import type { AppPlugin } from '@guest/http-kit';
import { createReadServices, type ReadRouteOptions } from './services.ts';
import i18nRoutes from './routes/v1/i18n.ts';
import languagesRoutes from './routes/v1/i18n/languages.ts';
import mapRoutes from './routes/v1/map.ts';
import eventsRoutes from './routes/v1/events/index.ts';
import placesRoutes from './routes/v1/places.ts';
import categoriesRoute from './routes/v1/categories.ts';
import amenitiesRoute from './routes/v1/amenities.ts';
import searchRoutes from './routes/v1/search/index.ts';
import nodesRoutes from './routes/v1/nodes.ts';
import configRoutes from './routes/v1/config.ts';
import currenciesRoutes from './routes/v1/currencies.ts';
import fxRatesRoutes from './routes/v1/fx/rates.ts';

/**
 * The read API: search, map, suggest, events and reference data, answered from the index.
 * Route modules live under `routes/` in folders that mirror their URL paths.
 */
async function readApiPlugin(app: FastifyInstance): Promise<void> {
  const { config, database, search, clock } = app.runtime;
  const services = createReadServices({ config, database, engine: search, clock, cursors: app.cursors });
  app.addHook('onClose', () => services.close());
  const opts: ReadRouteOptions = { services, config };
  await app.register(i18nRoutes, opts);
  await app.register(languagesRoutes, opts);
  await app.register(mapRoutes, opts);
  await app.register(eventsRoutes, opts);
  await app.register(placesRoutes, opts);
  await app.register(categoriesRoute, opts);
  await app.register(amenitiesRoute, opts);
  await app.register(searchRoutes, opts);
  await app.register(nodesRoutes, opts);
  await app.register(configRoutes, opts);
  await app.register(currenciesRoutes, opts);
  await app.register(fxRatesRoutes, opts);
}

export const readApi: AppPlugin = { name: 'read-api', plugin: readApiPlugin };
