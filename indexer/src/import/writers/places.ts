import { schema } from '@guest/db';
import { PLACE_LEVELS, type PlaceRecord } from '@guest/catalog';
import { chunks, excludedSet, NEXT_VERSION, type WriteContext } from './shared.ts';
import { changedByExternalId, idsByKey } from './external-ids.ts';

/**
 * Places, parents first (by level, from the country down), so each batch resolves its parents'
 * ids, those of the file's own places included. Returns the ids of every place by external id.
 */
export async function writePlaces(
  ctx: WriteContext,
  records: PlaceRecord[],
  batchSize: number,
  progress: (n: number) => void,
): Promise<Map<string, number>> {
  const placeIds = await idsByKey(ctx.dbTx, schema.places);
  for (const level of PLACE_LEVELS) {
    for (const batch of chunks(
      records.filter((p) => p.level === level),
      batchSize,
    )) {
      await writeBatch(ctx, batch, placeIds);
      progress(batch.length);
    }
  }
  return placeIds;
}

async function writeBatch(ctx: WriteContext, batch: PlaceRecord[], placeIds: Map<string, number>) {
  const changed = await changedByExternalId(ctx, schema.places, 'place', batch);
  if (changed.length) {
    const written = await ctx.dbTx
      .insert(schema.places)
      .values(
        changed.map(({ r, hash }) => ({
          externalId: r.external_id,
          parentId: r.parent ? placeIds.get(r.parent)! : null,
          level: r.level,
          slug: r.slug,
          name: r.name,
          timezone: r.timezone ?? null,
          currency: r.currency ?? null,
          centerLat: r.center?.lat ?? null,
          centerLon: r.center?.lon ?? null,
          popular: r.popular ?? false,
          contentHash: hash,
          version: NEXT_VERSION,
        })),
      )
      .onConflictDoUpdate({ target: schema.places.externalId, set: excludedSet(schema.places, ['id', 'externalId']) })
      .returning({ id: schema.places.id, k: schema.places.externalId, version: schema.places.version });
    for (const w of written) {
      placeIds.set(w.k, w.id);
      ctx.outbox.push({ entity: 'place', entityId: w.id, version: w.version });
    }
  }
}
