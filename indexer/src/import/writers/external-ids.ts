import { inArray } from 'drizzle-orm';
import { schema, type DbTx } from '@guest/db';
import { diff, tallyDiff, type Changed, type WriteContext } from './shared.ts';

/** The content hashes of the records of these external ids that the catalog holds. */
export async function existingHashes(
  dbTx: DbTx,
  table: typeof schema.places | typeof schema.listings | typeof schema.events,
  keys: string[],
): Promise<Map<string, string>> {
  const rows = await dbTx
    .select({ k: table.externalId, h: table.contentHash })
    .from(table)
    .where(inArray(table.externalId, keys));
  return new Map(rows.map((x) => [x.k, x.h]));
}

/** Ids by key (external id or code) of a whole table: what later records refer to. */
export async function idsByKey(
  dbTx: DbTx,
  table: typeof schema.places | typeof schema.categories | typeof schema.amenities,
): Promise<Map<string, number>> {
  const key = 'externalId' in table ? table.externalId : table.code;
  const rows = await dbTx.select({ k: key, id: table.id }).from(table);
  return new Map(rows.map((r) => [r.k, r.id]));
}

/**
 * The records of a batch whose content is new or changed, by external id (counted as created,
 * updated or unchanged under `type`).
 */
export async function changedByExternalId<R extends { external_id: string }>(
  ctx: WriteContext,
  table: typeof schema.places | typeof schema.listings | typeof schema.events,
  type: string,
  batch: R[],
): Promise<Array<Changed<R>>> {
  const existing = await existingHashes(
    ctx.dbTx,
    table,
    batch.map((r) => r.external_id),
  );
  const d = diff(batch, (r) => r.external_id, existing);
  tallyDiff(ctx, type, d);
  return d.changed;
}
