import { eq, sql } from 'drizzle-orm';
import { schema, type Database } from '@guest/db';
import { inTransaction } from '@guest/jobs';
import { signalCatalogChanges } from './outbox/signal.ts';

/** What `catalog delete` removes. Places are not here: listings and events hang on them. */
export const DELETABLE_ENTITIES = ['listing', 'event'] as const;
export type DeletableEntity = (typeof DELETABLE_ENTITIES)[number];

export const isDeletableEntity = (v: string | undefined): v is DeletableEntity =>
  (DELETABLE_ENTITIES as readonly string[]).includes(v ?? '');

export class CatalogRecordNotFoundError extends Error {
  constructor(
    public readonly entity: DeletableEntity,
    public readonly externalId: string,
  ) {
    super(`${entity} "${externalId}" is not in the catalog; nothing was deleted`);
    this.name = 'CatalogRecordNotFoundError';
  }
}

export interface DeletedRecord {
  entity: DeletableEntity;
  externalId: string;
  id: number;
  /** Version of the delete: larger than any version its documents carry. */
  version: number;
}

const TABLES = { listing: schema.listings, event: schema.events } as const;

/**
 * Deletes a listing or an event by its external id, in one transaction with an outbox row, like
 * an import: the worker finds the row gone from Postgres and removes its documents (a listing at
 * the version of this change, an event's occurrences all at once). The child rows (a listing's
 * kind block, categories, amenities and blocked ranges; an event's schedule) go with it through
 * their foreign keys (`on delete cascade`).
 */
export async function deleteCatalogRecord(
  database: Database,
  entity: DeletableEntity,
  externalId: string,
): Promise<DeletedRecord> {
  const table = TABLES[entity];
  return inTransaction(database, async (tx, jobDb) => {
    const [row] = await tx.delete(table).where(eq(table.externalId, externalId)).returning({ id: table.id });
    if (!row) throw new CatalogRecordNotFoundError(entity, externalId);
    const [change] = await tx
      .insert(schema.catalogOutbox)
      .values({ entity, entityId: row.id, version: sql`nextval('catalog_version_seq')` as unknown as number })
      .returning({ version: schema.catalogOutbox.version });
    // The worker's pg-boss job, queued in this transaction: it exists exactly when the delete commits.
    await signalCatalogChanges(jobDb, database);
    return { entity, externalId, id: row.id, version: change!.version };
  });
}
