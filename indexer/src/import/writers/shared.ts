import { sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { schema, DbTx } from '@guest/db';
import { contentHash } from '../content-hash.ts';

/**
 * What every record writer of an import shares: the transaction, the outbox rows the written
 * records leave for the indexer, the counts per record type and the progress. A writer takes a
 * batch of records of its type, writes those whose content changed and says what it did.
 */

type OutboxEntity = (typeof schema.catalogOutbox.$inferInsert)['entity'];
export type OutboxEntry = { entity: OutboxEntity; entityId: number; version: number };

export interface WriteContext {
  dbTx: DbTx;
  /** The changes the indexer is told about, in the same transaction. */
  outbox: OutboxEntry[];
  /** Counts a batch of a record type: created, updated (content changed) and unchanged. */
  tally(type: string, created: number, updated: number, unchanged: number): void;
}

/** The next catalog version: every write draws from one sequence (documents' external versions). */
export const NEXT_VERSION = sql`nextval('catalog_version_seq')` as unknown as number;

// `updated_at` is left to the column's default: an upsert's `excluded` row carries it too, so a
// changed record is stamped by the database when it is written.

/** `set` for ON CONFLICT DO UPDATE: every column but the key takes the incoming value. */
export function excludedSet(table: PgTable, keep: string[]): Record<string, SQL> {
  const cols = (table as unknown as Record<symbol, Record<string, { name: string }>>)[Symbol.for('drizzle:Columns')]!;
  const set: Record<string, SQL> = {};
  for (const [prop, col] of Object.entries(cols)) {
    if (!keep.includes(prop)) set[prop] = sql.raw(`excluded."${col.name}"`);
  }
  return set;
}

export interface Changed<R> {
  r: R;
  hash: string;
  isNew: boolean;
}

/** Splits a batch into new, changed and unchanged records by content hash. */
export function diff<R>(
  batch: R[],
  key: (r: R) => string,
  existing: Map<string, string>,
): { changed: Array<Changed<R>>; unchanged: number } {
  const changed: Array<Changed<R>> = [];
  let unchanged = 0;
  for (const r of batch) {
    const hash = contentHash(r);
    const old = existing.get(key(r));
    if (old === hash) unchanged++;
    else changed.push({ r, hash, isNew: old === undefined });
  }
  return { changed, unchanged };
}

/** Counts a diffed batch: new ones created, the other changed ones updated. */
export function tallyDiff<R>(ctx: WriteContext, type: string, d: { changed: Array<Changed<R>>; unchanged: number }) {
  const created = d.changed.filter((c) => c.isNew).length;
  ctx.tally(type, created, d.changed.length - created, d.unchanged);
}

export function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
