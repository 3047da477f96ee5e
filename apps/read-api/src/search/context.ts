import type { FastifyInstance } from 'fastify';
import { aliasName, BASE_CURRENCY } from '@guest/catalog';
import type { SearchEngine } from '@guest/search-engine';
import { FxRates } from './fx-rates.ts';
import type { QueryContext } from './query.ts';

/** What the search routes share: the engine, the index aliases and the FX table. */
export interface SearchDeps {
  engine: SearchEngine;
  listingsIndex: string;
  placesIndex: string;
  fx: FxRates;
  baseCurrency: string;
  queryContext(): Promise<QueryContext>;
}

export function createSearchDeps(app: FastifyInstance): SearchDeps {
  const { config, search, database } = app.runtime;
  const fx = new FxRates(database.db);
  return {
    engine: search,
    listingsIndex: aliasName(config.INDEX_PREFIX, 'listings'),
    placesIndex: aliasName(config.INDEX_PREFIX, 'places'),
    fx,
    baseCurrency: BASE_CURRENCY,
    async queryContext() {
      return { fx: await fx.get(), baseCurrency: BASE_CURRENCY };
    },
  };
}
