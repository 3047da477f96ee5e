import { inArray } from 'drizzle-orm';
import { schema, type Database, type DbTx } from '@guest/db';
import { inTransaction, type JobDb } from '@guest/jobs';
import type { CatalogRecord } from '@guest/catalog';
import { signalCatalogChanges } from '../outbox/signal.ts';
import { byLine, parseCatalogNdjson, printable, type ParsedLine, type ParseResult } from './parse-ndjson.ts';
import { byType, checkReferences, checkStoredSlugs, type KnownKeys, type SlugHolders } from './check-references.ts';
import { chunks, type WriteContext } from './writers/shared.ts';
import { writeAmenities, writeCategories, writeCurrencies } from './writers/reference.ts';
import { writeFxRates } from './writers/fx-rates.ts';
import { writePlaces } from './writers/places.ts';
import { writeListings } from './writers/listings.ts';
import { writeEvents } from './writers/events.ts';
import { idsByKey } from './writers/external-ids.ts';

export class CatalogImportError extends Error {
  public readonly errors: string[];
  constructor(errors: string[]) {
    const lines = errors.map(printable);
    super(`catalog import refused, nothing was written:\n${lines.map((e) => `  ${e}`).join('\n')}`);
    this.errors = lines;
    this.name = 'CatalogImportError';
  }
}

export interface TypeStats {
  created: number;
  updated: number;
  unchanged: number;
}
export interface ImportStats {
  records: number;
  byType: Record<string, TypeStats>;
  outboxRows: number;
}

export interface ImportOptions {
  batchSize?: number;
  onProgress?: (done: number, total: number) => void;
}

async function loadKnownKeys(db: Database['db']): Promise<KnownKeys> {
  const [p, c, a, cur] = await Promise.all([
    db.select({ k: schema.places.externalId, level: schema.places.level }).from(schema.places),
    db.select({ k: schema.categories.code, kind: schema.categories.kind }).from(schema.categories),
    db.select({ k: schema.amenities.code }).from(schema.amenities),
    db.select({ k: schema.currencies.code }).from(schema.currencies),
  ]);
  return {
    places: new Map(p.map((r) => [r.k, r.level])),
    categories: new Map(c.map((r) => [r.k, r.kind])),
    amenities: new Set(a.map((r) => r.k)),
    currencies: new Set(cur.map((r) => r.k)),
  };
}

/** Which of the file's place and event slugs the catalog holds already, and for whom. */
async function loadSlugHolders(db: Database['db'], lines: ParsedLine[]): Promise<SlugHolders> {
  const slugs = { place: [] as string[], event: [] as string[] };
  for (const { record: r } of lines) if (r.type === 'place' || r.type === 'event') slugs[r.type].push(r.slug);
  const [p, e] = await Promise.all([
    slugs.place.length
      ? db
          .select({ slug: schema.places.slug, k: schema.places.externalId })
          .from(schema.places)
          .where(inArray(schema.places.slug, slugs.place))
      : [],
    slugs.event.length
      ? db
          .select({ slug: schema.events.slug, k: schema.events.externalId })
          .from(schema.events)
          .where(inArray(schema.events.slug, slugs.event))
      : [],
  ]);
  return { place: new Map(p.map((r) => [r.slug, r.k])), event: new Map(e.map((r) => [r.slug, r.k])) };
}

/**
 * Validates a whole NDJSON file, then writes it in one transaction: either every record is in
 * the catalog afterwards or none is. Every check runs over the whole file (format, references,
 * slugs held in the catalog), so one refusal names every bad line. Records whose content hash
 * is unchanged are skipped, so a second import of the same file changes nothing (no version
 * bump, no outbox row). Each changed record gets a fresh version from `catalog_version_seq` and
 * an outbox row in the same transaction.
 */
export async function importCatalogText(database: Database, text: string, opts: ImportOptions = {}) {
  const parsed = parseCatalogNdjson(text);
  return importCatalogRecords(database, parsed.records, opts, parsed);
}

/**
 * Imports parsed lines; `parsed` (what `parseCatalogNdjson` found wrong in the file they come
 * from) is reported together with the reference checks of these lines.
 */
export async function importCatalogRecords(
  database: Database,
  lines: ParsedLine[],
  opts: ImportOptions = {},
  parsed: Pick<ParseResult, 'errors' | 'declared'> | null = null,
): Promise<ImportStats> {
  const [known, holders] = await Promise.all([loadKnownKeys(database.db), loadSlugHolders(database.db, lines)]);
  const errors = [
    ...(parsed?.errors ?? []),
    ...checkReferences(lines, known, parsed?.declared),
    ...checkStoredSlugs(lines, holders),
  ];
  if (errors.length) throw new CatalogImportError(byLine(errors));

  const batchSize = opts.batchSize ?? 1000;
  const stats: ImportStats = { records: lines.length, byType: {}, outboxRows: 0 };
  let done = 0;
  const progress = (n: number) => {
    done += n;
    opts.onProgress?.(done, lines.length);
  };
  const tally = (type: string, created: number, updated: number, unchanged: number) => {
    const t = (stats.byType[type] ??= { created: 0, updated: 0, unchanged: 0 });
    t.created += created;
    t.updated += updated;
    t.unchanged += unchanged;
  };

  await writeAll(database, lines, async (dbTx, jobDb) => {
    const ctx: WriteContext = { dbTx, outbox: [], tally };
    // In the order records refer to each other: reference data, places (parents first), then
    // listings and events, which name their place, categories and amenities.
    const each = async <T extends CatalogRecord['type']>(
      type: T,
      write: (batch: Array<Extract<CatalogRecord, { type: T }>>) => Promise<void>,
    ) => {
      for (const batch of chunks(byType(lines, type), batchSize)) {
        await write(batch);
        progress(batch.length);
      }
    };
    await each('currency', (batch) => writeCurrencies(ctx, batch));
    await each('amenity', (batch) => writeAmenities(ctx, batch));
    await each('fx_rate', (batch) => writeFxRates(ctx, batch));
    await each('category', (batch) => writeCategories(ctx, batch));
    const placeIds = await writePlaces(ctx, byType(lines, 'place'), batchSize, progress);
    const refs = {
      placeIds,
      categoryIds: await idsByKey(dbTx, schema.categories),
      amenityIds: await idsByKey(dbTx, schema.amenities),
    };
    await each('listing', (batch) => writeListings(ctx, batch, refs));
    await each('event', (batch) => writeEvents(ctx, batch, refs));

    for (const batch of chunks(ctx.outbox, 5000)) await dbTx.insert(schema.catalogOutbox).values(batch);
    stats.outboxRows = ctx.outbox.length;
    // The worker's pg-boss job, queued in this transaction: it exists exactly when the rows commit.
    if (ctx.outbox.length) await signalCatalogChanges(jobDb, database);
  });
  return stats;
}

/**
 * The transaction of an import. A unique key that the checks before could not settle (two
 * records of the file swapping slugs, a record written by another import meanwhile) fails it as
 * a whole, reported on the lines that ask for the value. Any other failure of the database is
 * reported by its message only: the failed statement and its parameters hold records' content.
 */
async function writeAll(
  database: Database,
  lines: ParsedLine[],
  fn: (dbTx: DbTx, jobDb: JobDb) => Promise<void>,
): Promise<void> {
  try {
    await inTransaction(database, fn);
  } catch (err) {
    const pgErr = ((err as { cause?: unknown }).cause ?? err) as {
      code?: string;
      detail?: string;
      constraint?: string;
      message?: string;
    };
    if (pgErr.code === '23505') throw new CatalogImportError(uniqueConflict(pgErr, lines));
    if (pgErr !== err && pgErr.code) {
      throw new Error(`catalog import failed, nothing was written: ${pgErr.message} (SQLSTATE ${pgErr.code})`);
    }
    throw err;
  }
}

const SLUG_CONSTRAINTS: Record<string, 'place' | 'event'> = { places_slug_uq: 'place', events_slug_uq: 'event' };

function uniqueConflict(pgErr: { detail?: string; constraint?: string }, lines: ParsedLine[]): string[] {
  const type = SLUG_CONSTRAINTS[pgErr.constraint ?? ''];
  const slug = /^Key \(slug\)=\((.*)\) already exists\.$/.exec(pgErr.detail ?? '')?.[1];
  if (type && slug !== undefined) {
    const asking = lines.filter(({ record: r }) => r.type === type && r.slug === slug);
    if (asking.length) {
      return asking.map(
        ({ line }) => `line ${line}: slug: "${slug}" is already used by another ${type} in the catalog`,
      );
    }
  }
  return [`${pgErr.constraint ?? 'unique key'}: ${pgErr.detail ?? 'duplicate value'}`];
}
