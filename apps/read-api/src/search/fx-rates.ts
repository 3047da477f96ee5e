import { desc, eq } from 'drizzle-orm';
import { schema, type Db } from '@guest/db';
import { BASE_CURRENCY, type FxTable } from '@guest/catalog';

/**
 * The latest FX table of the base currency (the one the indexer used for `price_base_minor`),
 * held in memory for a short while: price filters and the price range convert through it.
 * Rates are a hint only (spec 4.5); a small lag after a new import is acceptable.
 */
export class FxRates {
  private cached: { at: number; table: FxTable } | null = null;
  private loading: Promise<FxTable> | null = null;

  constructor(
    private readonly db: Db,
    private readonly ttlMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  async get(): Promise<FxTable> {
    if (this.cached && this.now() - this.cached.at < this.ttlMs) return this.cached.table;
    this.loading ??= this.load().finally(() => {
      this.loading = null;
    });
    return this.loading;
  }

  private async load(): Promise<FxTable> {
    const [[fx], currencies] = await Promise.all([
      this.db
        .select({ base: schema.fxRates.base, rates: schema.fxRates.rates })
        .from(schema.fxRates)
        .where(eq(schema.fxRates.base, BASE_CURRENCY))
        .orderBy(desc(schema.fxRates.date))
        .limit(1),
      this.db.select({ code: schema.currencies.code, minor: schema.currencies.minorUnits }).from(schema.currencies),
    ]);
    const table: FxTable = {
      base: BASE_CURRENCY,
      rates: fx?.rates ?? {},
      minorUnits: Object.fromEntries(currencies.map((c) => [c.code, c.minor])),
    };
    this.cached = { at: this.now(), table };
    return table;
  }
}
