import { desc, eq } from 'drizzle-orm';
import { schema, type Db } from '@guest/db';
import { BASE_CURRENCY, type FxTable } from '@guest/catalog';

export interface FxServiceDeps {
  db: Db;
  /** How long the FX table of the search filters is held in memory; default one minute. */
  tableTtlMs?: number;
  now?: () => number;
}

/** The latest rates of the base currency as `/v1/fx/rates` answers them. */
export interface LatestRates {
  base: string;
  date: string | null;
  fetched_at: string | null;
  source: string | null;
  rates: Record<string, number>;
}

export type FxService = ReturnType<typeof createFxService>;

/**
 * FX rates of the base currency, read-only from the catalog tables: the latest rates for
 * `/v1/fx/rates`, and the table price filters and the price range convert through (the one the
 * indexer used for `price_base_minor`), held in memory for a short while. Rates are a hint only
 * (spec 4.5); a small lag after a new import is acceptable.
 */
export function createFxService(deps: FxServiceDeps) {
  const { db } = deps;
  const ttlMs = deps.tableTtlMs ?? 60_000;
  const now = deps.now ?? Date.now;
  let cached: { at: number; table: FxTable } | null = null;
  let loading: Promise<FxTable> | null = null;

  async function loadTable(): Promise<FxTable> {
    const [[fx], currencies] = await Promise.all([
      db
        .select({ base: schema.fxRates.base, rates: schema.fxRates.rates })
        .from(schema.fxRates)
        .where(eq(schema.fxRates.base, BASE_CURRENCY))
        .orderBy(desc(schema.fxRates.date))
        .limit(1),
      db.select({ code: schema.currencies.code, minor: schema.currencies.minorUnits }).from(schema.currencies),
    ]);
    const table: FxTable = {
      base: BASE_CURRENCY,
      rates: fx?.rates ?? {},
      minorUnits: Object.fromEntries(currencies.map((c) => [c.code, c.minor])),
    };
    cached = { at: now(), table };
    return table;
  }

  return {
    /** The conversion table (rates and minor units), cached for `tableTtlMs`. */
    async table(): Promise<FxTable> {
      if (cached && now() - cached.at < ttlMs) return cached.table;
      loading ??= loadTable().finally(() => {
        loading = null;
      });
      return loading;
    },

    /** The latest rates with their day, fetch time and source; empty before any are imported. */
    async latest(): Promise<LatestRates> {
      const f = schema.fxRates;
      const [latest] = await db
        .select({ date: f.date, fetchedAt: f.fetchedAt, source: f.source, rates: f.rates })
        .from(f)
        .where(eq(f.base, BASE_CURRENCY))
        .orderBy(desc(f.date))
        .limit(1);
      return {
        base: BASE_CURRENCY,
        date: latest?.date ?? null,
        fetched_at: latest?.fetchedAt?.toISOString() ?? null,
        source: latest?.source ?? null,
        rates: latest?.rates ?? {},
      };
    },
  };
}
