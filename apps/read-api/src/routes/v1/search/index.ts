import type { FastifyInstance } from 'fastify';
import type { ReadRouteOptions } from '../../../services.ts';
import countRoute from './count.ts';
import listingsRoute from './listings.ts';
import mapRoute from './map.ts';
import priceRangeRoute from './price-range.ts';
import suggestRoute from './suggest.ts';

/** Every route of spec 4.7 (`/v1/search/*`), answered from the listings and places indices. */
export default async function searchRoutes(app: FastifyInstance, opts: ReadRouteOptions): Promise<void> {
  await app.register(listingsRoute, opts);
  await app.register(mapRoute, opts);
  await app.register(countRoute, opts);
  await app.register(priceRangeRoute, opts);
  await app.register(suggestRoute, opts);
}
