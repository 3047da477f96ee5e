import { asc } from 'drizzle-orm';
import { schema, type Db } from '@guest/db';
import { pickText, type ContentLanguage } from '@guest/catalog';

export interface CurrenciesServiceDeps {
  db: Db;
}

export type CurrenciesService = ReturnType<typeof createCurrenciesService>;

/** The catalog's currencies (spec 4.5), read-only from the catalog tables. */
export function createCurrenciesService(deps: CurrenciesServiceDeps) {
  const c = schema.currencies;
  return {
    /** Every currency by code, named in `lang` (English fallback). */
    async list(lang: ContentLanguage) {
      const rows = await deps.db
        .select({ code: c.code, name: c.name, symbol: c.symbol, minorUnits: c.minorUnits })
        .from(c)
        .orderBy(asc(c.code));
      return rows.map((r) => ({
        code: r.code,
        name: pickText(r.name, lang, 'en')?.text ?? r.code,
        symbol: r.symbol,
        minor_units: r.minorUnits,
      }));
    },

    /** Codes of the catalog's currencies, in code order (empty before any import). */
    async codes(): Promise<string[]> {
      const rows = await deps.db.select({ code: c.code }).from(c).orderBy(asc(c.code));
      return rows.map((r) => r.code);
    },
  };
}
