import type { FastifyInstance } from 'fastify';
import { createSearchDeps } from '../../../search/context.ts';
import countRoute from './count.ts';
import listingsRoute from './listings.ts';
import mapRoute from './map.ts';
import priceRangeRoute from './price-range.ts';
import suggestRoute from './suggest.ts';

/** Every route of spec 4.7 (`/v1/search/*`), answered from the listings and places indices. */
export default async function searchRoutes(app: FastifyInstance): Promise<void> {
  const deps = createSearchDeps(app);
  await app.register(listingsRoute, { deps });
  await app.register(mapRoute, { deps });
  await app.register(countRoute, { deps });
  await app.register(priceRangeRoute, { deps });
  await app.register(suggestRoute, { deps });
}
