import { and, eq } from 'drizzle-orm';
import { schema } from '@guest/db';
import { BASE_CURRENCY, type FxRateRecord } from '@guest/catalog';
import { contentHash } from '../content-hash.ts';
import { excludedSet, NEXT_VERSION, type WriteContext } from './shared.ts';

/** FX rates, one row per base currency and date. */
export async function writeFxRates(ctx: WriteContext, batch: FxRateRecord[]) {
  let unchanged = 0;
  for (const r of batch) {
    const [old] = await ctx.dbTx
      .select({ h: schema.fxRates.contentHash })
      .from(schema.fxRates)
      .where(and(eq(schema.fxRates.base, r.base), eq(schema.fxRates.date, r.date)));
    const hash = contentHash(r);
    if (old?.h === hash) {
      unchanged++;
      continue;
    }
    const [row] = await ctx.dbTx
      .insert(schema.fxRates)
      .values({
        base: r.base,
        date: r.date,
        source: r.source ?? null,
        fetchedAt: r.fetched_at ? new Date(r.fetched_at) : null,
        rates: r.rates,
        contentHash: hash,
        version: NEXT_VERSION,
      })
      .onConflictDoUpdate({
        target: [schema.fxRates.base, schema.fxRates.date],
        set: excludedSet(schema.fxRates, ['base', 'date']),
      })
      .returning({ version: schema.fxRates.version });
    // Normalised prices of every listing and event depend on the base-currency rates.
    if (r.base === BASE_CURRENCY) ctx.outbox.push({ entity: 'fx', entityId: 0, version: row!.version });
    ctx.tally('fx_rate', old ? 0 : 1, old ? 1 : 0, 0);
  }
  ctx.tally('fx_rate', 0, 0, unchanged);
}
