import type { FastifyInstance } from 'fastify';
import type { AppPlugin } from '@guest/http-kit';
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
  await app.register(i18nRoutes);
  await app.register(languagesRoutes);
  await app.register(mapRoutes);
  await app.register(eventsRoutes);
  await app.register(placesRoutes);
  await app.register(categoriesRoute);
  await app.register(amenitiesRoute);
  await app.register(searchRoutes);
  await app.register(nodesRoutes);
  await app.register(configRoutes);
  await app.register(currenciesRoutes);
  await app.register(fxRatesRoutes);
}

export const readApi: AppPlugin = { name: 'read-api', plugin: readApiPlugin };
