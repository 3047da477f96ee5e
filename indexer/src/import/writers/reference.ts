import { inArray, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { schema } from '@guest/db';
import type { AmenityRecord, CategoryRecord, CurrencyRecord } from '@guest/catalog';
import { diff, excludedSet, NEXT_VERSION, tallyDiff, type OutboxEntry, type WriteContext } from './shared.ts';

/**
 * The reference records keyed by their code: currencies, amenities and categories. One writer
 * serves the three; each type says its table, the row of a record and what the outbox is told.
 */
interface KeyedSpec<R> {
  type: string;
  table: PgTable;
  code: PgColumn;
  /** The columns the upsert leaves as they are (the key, a serial id). */
  keep: string[];
  row(r: R, hash: string): Record<string, unknown>;
  entity: OutboxEntry['entity'];
  /** The id returned for the outbox row (0 when the entity has none). */
  id?: PgColumn;
  version: PgColumn;
}

async function writeKeyed<R extends { code: string }>(ctx: WriteContext, batch: R[], spec: KeyedSpec<R>) {
  const rows = (await ctx.dbTx
    .select({ k: spec.code, h: (spec.table as unknown as { contentHash: PgColumn }).contentHash })
    .from(spec.table)
    .where(
      inArray(
        spec.code,
        batch.map((r) => r.code),
      ) as SQL,
    )) as Array<{ k: string; h: string }>;
  const d = diff(batch, (r) => r.code, new Map(rows.map((x) => [x.k, x.h])));
  if (d.changed.length) {
    const written = (await ctx.dbTx
      .insert(spec.table)
      .values(d.changed.map(({ r, hash }) => spec.row(r, hash)) as never)
      .onConflictDoUpdate({ target: spec.code, set: excludedSet(spec.table, spec.keep) })
      .returning({ version: spec.version, ...(spec.id ? { id: spec.id } : {}) })) as Array<{
      version: number;
      id?: number;
    }>;
    for (const w of written) ctx.outbox.push({ entity: spec.entity, entityId: w.id ?? 0, version: w.version });
  }
  tallyDiff(ctx, spec.type, d);
}

// No index document copies currency or amenity names; their outbox rows only tell readers that
// cached reference lists are stale.
export function writeCurrencies(ctx: WriteContext, batch: CurrencyRecord[]) {
  return writeKeyed(ctx, batch, {
    type: 'currency',
    table: schema.currencies,
    code: schema.currencies.code,
    keep: ['code'],
    row: (r, hash) => ({
      code: r.code,
      name: r.name,
      symbol: r.symbol ?? null,
      minorUnits: r.minor_units,
      contentHash: hash,
      version: NEXT_VERSION,
    }),
    entity: 'currency',
    version: schema.currencies.version,
  });
}

export function writeAmenities(ctx: WriteContext, batch: AmenityRecord[]) {
  return writeKeyed(ctx, batch, {
    type: 'amenity',
    table: schema.amenities,
    code: schema.amenities.code,
    keep: ['id', 'code'],
    row: (r, hash) => ({
      code: r.code,
      group: r.group,
      kinds: r.kinds,
      name: r.name,
      contentHash: hash,
      version: NEXT_VERSION,
    }),
    entity: 'amenity',
    id: schema.amenities.id,
    version: schema.amenities.version,
  });
}

export function writeCategories(ctx: WriteContext, batch: CategoryRecord[]) {
  return writeKeyed(ctx, batch, {
    type: 'category',
    table: schema.categories,
    code: schema.categories.code,
    keep: ['id', 'code'],
    row: (r, hash) => ({ code: r.code, kind: r.kind, name: r.name, contentHash: hash, version: NEXT_VERSION }),
    entity: 'category',
    id: schema.categories.id,
    version: schema.categories.version,
  });
}
