import { eq, inArray, sql, and, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { schema, type Database, type DbTx } from '@guest/db';
import { inTransaction, type JobDb } from '@guest/jobs';
import { BASE_CURRENCY, LISTING_KINDS, type EventRecord, type ListingRecord, type PlaceRecord } from '@guest/catalog';
import { signalCatalogChanges } from '../outbox/signal.ts';
import { contentHash } from './content-hash.ts';
import { byLine, parseCatalogNdjson, printable, type ParsedLine, type ParseResult } from './parse-ndjson.ts';
import {
  byType,
  checkReferences,
  checkStoredSlugs,
  LEVEL_RANK,
  type KnownKeys,
  type SlugHolders,
} from './check-references.ts';

type OutboxEntity = (typeof schema.catalogOutbox.$inferInsert)['entity'];

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

const NEXT_VERSION = sql`nextval('catalog_version_seq')`;

/** `set` for ON CONFLICT DO UPDATE: every column but the key takes the incoming value. */
function excludedSet(table: PgTable, keep: string[]): Record<string, SQL> {
  const cols = (table as unknown as Record<symbol, Record<string, { name: string }>>)[Symbol.for('drizzle:Columns')]!;
  const set: Record<string, SQL> = {};
  for (const [prop, col] of Object.entries(cols)) {
    if (!keep.includes(prop)) set[prop] = sql.raw(`excluded."${col.name}"`);
  }
  return set;
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
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
    const outbox: Array<{ entity: OutboxEntity; entityId: number; version: number }> = [];

    /** Splits a batch into new, changed and unchanged records by content hash. */
    const diff = <R>(batch: R[], key: (r: R) => string, existing: Map<string, string>) => {
      const changed: Array<{ r: R; hash: string; isNew: boolean }> = [];
      let unchanged = 0;
      for (const r of batch) {
        const hash = contentHash(r);
        const old = existing.get(key(r));
        if (old === hash) unchanged++;
        else changed.push({ r, hash, isNew: old === undefined });
      }
      return { changed, unchanged };
    };

    // No index document copies currency or amenity names; their outbox rows only tell readers
    // that cached reference lists are stale.
    for (const batch of chunks(byType(lines, 'currency'), batchSize)) {
      const rows = await dbTx
        .select({ k: schema.currencies.code, h: schema.currencies.contentHash })
        .from(schema.currencies)
        .where(
          inArray(
            schema.currencies.code,
            batch.map((r) => r.code),
          ),
        );
      const { changed, unchanged } = diff(batch, (r) => r.code, new Map(rows.map((x) => [x.k, x.h])));
      if (changed.length) {
        const written = await dbTx
          .insert(schema.currencies)
          .values(
            changed.map(({ r, hash }) => ({
              code: r.code,
              name: r.name,
              symbol: r.symbol ?? null,
              minorUnits: r.minor_units,
              contentHash: hash,
              version: NEXT_VERSION as unknown as number,
              updatedAt: new Date(),
            })),
          )
          .onConflictDoUpdate({ target: schema.currencies.code, set: excludedSet(schema.currencies, ['code']) })
          .returning({ version: schema.currencies.version });
        for (const w of written) outbox.push({ entity: 'currency', entityId: 0, version: w.version });
      }
      tally('currency', changed.filter((c) => c.isNew).length, changed.filter((c) => !c.isNew).length, unchanged);
      progress(batch.length);
    }

    for (const batch of chunks(byType(lines, 'amenity'), batchSize)) {
      const rows = await dbTx
        .select({ k: schema.amenities.code, h: schema.amenities.contentHash })
        .from(schema.amenities)
        .where(
          inArray(
            schema.amenities.code,
            batch.map((r) => r.code),
          ),
        );
      const { changed, unchanged } = diff(batch, (r) => r.code, new Map(rows.map((x) => [x.k, x.h])));
      if (changed.length) {
        const written = await dbTx
          .insert(schema.amenities)
          .values(
            changed.map(({ r, hash }) => ({
              code: r.code,
              group: r.group,
              kinds: r.kinds,
              name: r.name,
              contentHash: hash,
              version: NEXT_VERSION as unknown as number,
              updatedAt: new Date(),
            })),
          )
          .onConflictDoUpdate({ target: schema.amenities.code, set: excludedSet(schema.amenities, ['id', 'code']) })
          .returning({ id: schema.amenities.id, version: schema.amenities.version });
        for (const w of written) outbox.push({ entity: 'amenity', entityId: w.id, version: w.version });
      }
      tally('amenity', changed.filter((c) => c.isNew).length, changed.filter((c) => !c.isNew).length, unchanged);
      progress(batch.length);
    }

    for (const batch of chunks(byType(lines, 'fx_rate'), batchSize)) {
      let unchangedCount = 0;
      for (const r of batch) {
        const [old] = await dbTx
          .select({ h: schema.fxRates.contentHash })
          .from(schema.fxRates)
          .where(and(eq(schema.fxRates.base, r.base), eq(schema.fxRates.date, r.date)));
        const hash = contentHash(r);
        if (old?.h === hash) {
          unchangedCount++;
          continue;
        }
        const [row] = await dbTx
          .insert(schema.fxRates)
          .values({
            base: r.base,
            date: r.date,
            source: r.source ?? null,
            fetchedAt: r.fetched_at ? new Date(r.fetched_at) : null,
            rates: r.rates,
            contentHash: hash,
            version: NEXT_VERSION as unknown as number,
            updatedAt: new Date(),
          })
          .onConflictDoUpdate({
            target: [schema.fxRates.base, schema.fxRates.date],
            set: excludedSet(schema.fxRates, ['base', 'date']),
          })
          .returning({ version: schema.fxRates.version });
        // Normalised prices of every listing and event depend on the base-currency rates.
        if (r.base === BASE_CURRENCY) outbox.push({ entity: 'fx', entityId: 0, version: row!.version });
        tally('fx_rate', old ? 0 : 1, old ? 1 : 0, 0);
      }
      tally('fx_rate', 0, 0, unchangedCount);
      progress(batch.length);
    }

    for (const batch of chunks(byType(lines, 'category'), batchSize)) {
      const rows = await dbTx
        .select({ k: schema.categories.code, h: schema.categories.contentHash })
        .from(schema.categories)
        .where(
          inArray(
            schema.categories.code,
            batch.map((r) => r.code),
          ),
        );
      const { changed, unchanged } = diff(batch, (r) => r.code, new Map(rows.map((x) => [x.k, x.h])));
      if (changed.length) {
        const written = await dbTx
          .insert(schema.categories)
          .values(
            changed.map(({ r, hash }) => ({
              code: r.code,
              kind: r.kind,
              name: r.name,
              contentHash: hash,
              version: NEXT_VERSION as unknown as number,
              updatedAt: new Date(),
            })),
          )
          .onConflictDoUpdate({ target: schema.categories.code, set: excludedSet(schema.categories, ['id', 'code']) })
          .returning({ id: schema.categories.id, version: schema.categories.version });
        for (const w of written) outbox.push({ entity: 'category', entityId: w.id, version: w.version });
      }
      tally('category', changed.filter((c) => c.isNew).length, changed.filter((c) => !c.isNew).length, unchanged);
      progress(batch.length);
    }

    // Places parents first, so each batch can resolve its parents' ids.
    const placeIds = new Map(
      (await dbTx.select({ k: schema.places.externalId, id: schema.places.id }).from(schema.places)).map((r) => [
        r.k,
        r.id,
      ]),
    );
    const placeRecords = byType(lines, 'place').sort((a, b) => LEVEL_RANK[a.level]! - LEVEL_RANK[b.level]!);
    for (const level of ['country', 'region', 'district', 'area']) {
      const ofLevel = placeRecords.filter((p) => p.level === level);
      for (const batch of chunks(ofLevel, batchSize)) {
        await writePlaces(dbTx, batch, placeIds, diff, outbox, tally);
        progress(batch.length);
      }
    }

    const categoryIds = new Map(
      (await dbTx.select({ k: schema.categories.code, id: schema.categories.id }).from(schema.categories)).map((r) => [
        r.k,
        r.id,
      ]),
    );
    const amenityIds = new Map(
      (await dbTx.select({ k: schema.amenities.code, id: schema.amenities.id }).from(schema.amenities)).map((r) => [
        r.k,
        r.id,
      ]),
    );

    for (const batch of chunks(byType(lines, 'listing'), batchSize)) {
      await writeListings(dbTx, batch, { placeIds, categoryIds, amenityIds }, diff, outbox, tally);
      progress(batch.length);
    }
    for (const batch of chunks(byType(lines, 'event'), batchSize)) {
      await writeEvents(dbTx, batch, { placeIds, categoryIds }, diff, outbox, tally);
      progress(batch.length);
    }

    for (const batch of chunks(outbox, 5000)) await dbTx.insert(schema.catalogOutbox).values(batch);
    stats.outboxRows = outbox.length;
    // The worker's pg-boss job, queued in this transaction: it exists exactly when the rows commit.
    if (outbox.length) await signalCatalogChanges(jobDb, database);
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

type Diff = <R>(
  batch: R[],
  key: (r: R) => string,
  existing: Map<string, string>,
) => { changed: Array<{ r: R; hash: string; isNew: boolean }>; unchanged: number };
type Outbox = Array<{ entity: OutboxEntity; entityId: number; version: number }>;
type Tally = (type: string, created: number, updated: number, unchanged: number) => void;

async function existingHashes(
  dbTx: DbTx,
  table: typeof schema.places | typeof schema.listings | typeof schema.events,
  keys: string[],
) {
  const rows = await dbTx
    .select({ k: table.externalId, h: table.contentHash })
    .from(table)
    .where(inArray(table.externalId, keys));
  return new Map(rows.map((x) => [x.k, x.h]));
}

async function writePlaces(
  dbTx: DbTx,
  batch: PlaceRecord[],
  placeIds: Map<string, number>,
  diff: Diff,
  outbox: Outbox,
  tally: Tally,
) {
  const existing = await existingHashes(
    dbTx,
    schema.places,
    batch.map((r) => r.external_id),
  );
  const { changed, unchanged } = diff(batch, (r) => r.external_id, existing);
  if (changed.length) {
    const written = await dbTx
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
          version: NEXT_VERSION as unknown as number,
          updatedAt: new Date(),
        })),
      )
      .onConflictDoUpdate({ target: schema.places.externalId, set: excludedSet(schema.places, ['id', 'externalId']) })
      .returning({ id: schema.places.id, k: schema.places.externalId, version: schema.places.version });
    for (const w of written) {
      placeIds.set(w.k, w.id);
      outbox.push({ entity: 'place', entityId: w.id, version: w.version });
    }
  }
  tally('place', changed.filter((c) => c.isNew).length, changed.filter((c) => !c.isNew).length, unchanged);
}

const KIND_TABLES = {
  stay: schema.listingStay,
  experience: schema.listingExperience,
  service: schema.listingService,
  transport: schema.listingTransport,
  food: schema.listingFood,
} as const;

function kindRow(id: number, r: ListingRecord) {
  switch (r.kind) {
    case 'stay': {
      const s = r.stay!;
      return {
        listingId: id,
        propertyType: s.property_type,
        roomType: s.room_type,
        bedrooms: s.bedrooms,
        beds: s.beds,
        bathrooms: s.bathrooms,
        maxGuests: s.max_guests,
        beachDistanceM: s.beach_distance_m ?? null,
        petsAllowed: s.pets_allowed,
        smokingAllowed: s.smoking_allowed,
        childrenAllowed: s.children_allowed,
        partiesAllowed: s.parties_allowed,
        longStay: s.long_stay,
      };
    }
    case 'experience': {
      const e = r.experience!;
      return { listingId: id, durationMin: e.duration_min, groupSizeMax: e.group_size_max, sameDay: e.same_day };
    }
    case 'service':
      return { listingId: id, durationMin: r.service!.duration_min, sameDay: r.service!.same_day };
    case 'transport': {
      const t = r.transport!;
      return { listingId: id, vehicleKind: t.vehicle_kind, transmission: t.transmission, seats: t.seats };
    }
    case 'food': {
      const f = r.food!;
      return { listingId: id, format: f.format, diets: f.diets, alcohol: f.alcohol };
    }
  }
}

async function writeListings(
  dbTx: DbTx,
  batch: ListingRecord[],
  refs: { placeIds: Map<string, number>; categoryIds: Map<string, number>; amenityIds: Map<string, number> },
  diff: Diff,
  outbox: Outbox,
  tally: Tally,
) {
  const existing = await existingHashes(
    dbTx,
    schema.listings,
    batch.map((r) => r.external_id),
  );
  const { changed, unchanged } = diff(batch, (r) => r.external_id, existing);
  tally('listing', changed.filter((c) => c.isNew).length, changed.filter((c) => !c.isNew).length, unchanged);
  if (!changed.length) return;
  const written = await dbTx
    .insert(schema.listings)
    .values(
      changed.map(({ r, hash }) => ({
        externalId: r.external_id,
        kind: r.kind,
        status: r.status,
        title: r.title,
        description: r.description,
        originalLang: r.original_lang,
        placeId: refs.placeIds.get(r.place)!,
        lat: r.location.mode === 'city_only' ? null : (r.location.lat ?? null),
        lon: r.location.mode === 'city_only' ? null : (r.location.lon ?? null),
        locationMode: r.location.mode,
        priceMinor: r.price.amount_minor,
        currency: r.price.currency,
        priceUnit: r.price.unit,
        ratingAvg: r.rating?.avg ?? null,
        ratingCount: r.rating?.count ?? 0,
        photos: r.photos,
        instantBook: r.instant_book,
        languages: r.languages,
        createdAt: new Date(r.created_at),
        contentHash: hash,
        version: NEXT_VERSION as unknown as number,
        updatedAt: new Date(),
      })),
    )
    .onConflictDoUpdate({ target: schema.listings.externalId, set: excludedSet(schema.listings, ['id', 'externalId']) })
    .returning({ id: schema.listings.id, k: schema.listings.externalId, version: schema.listings.version });
  const idOf = new Map(written.map((w) => [w.k, w.id]));
  const ids = written.map((w) => w.id);
  // Child rows are replaced wholesale: the record is the full truth about the listing.
  await dbTx.delete(schema.listingCategories).where(inArray(schema.listingCategories.listingId, ids));
  await dbTx.delete(schema.listingAmenities).where(inArray(schema.listingAmenities.listingId, ids));
  await dbTx.delete(schema.listingBlockedRanges).where(inArray(schema.listingBlockedRanges.listingId, ids));
  for (const kind of LISTING_KINDS) {
    await dbTx.delete(KIND_TABLES[kind]).where(inArray(KIND_TABLES[kind].listingId, ids));
  }
  const cats = changed.flatMap(({ r }) =>
    [...new Set(r.categories)].map((c) => ({
      listingId: idOf.get(r.external_id)!,
      categoryId: refs.categoryIds.get(c)!,
    })),
  );
  const ams = changed.flatMap(({ r }) =>
    [...new Set(r.amenities)].map((a) => ({ listingId: idOf.get(r.external_id)!, amenityId: refs.amenityIds.get(a)! })),
  );
  const blocked = changed.flatMap(({ r }) =>
    r.blocked.map((b) => ({ listingId: idOf.get(r.external_id)!, dateFrom: b.from, dateTo: b.to })),
  );
  if (cats.length) await dbTx.insert(schema.listingCategories).values(cats);
  if (ams.length) await dbTx.insert(schema.listingAmenities).values(ams);
  if (blocked.length) await dbTx.insert(schema.listingBlockedRanges).values(blocked);
  for (const kind of LISTING_KINDS) {
    const rows = changed.filter(({ r }) => r.kind === kind).map(({ r }) => kindRow(idOf.get(r.external_id)!, r));
    if (rows.length) await dbTx.insert(KIND_TABLES[kind]).values(rows as never);
  }
  for (const w of written) outbox.push({ entity: 'listing', entityId: w.id, version: w.version });
}

async function writeEvents(
  dbTx: DbTx,
  batch: EventRecord[],
  refs: { placeIds: Map<string, number>; categoryIds: Map<string, number> },
  diff: Diff,
  outbox: Outbox,
  tally: Tally,
) {
  const existing = await existingHashes(
    dbTx,
    schema.events,
    batch.map((r) => r.external_id),
  );
  const { changed, unchanged } = diff(batch, (r) => r.external_id, existing);
  tally('event', changed.filter((c) => c.isNew).length, changed.filter((c) => !c.isNew).length, unchanged);
  if (!changed.length) return;
  const written = await dbTx
    .insert(schema.events)
    .values(
      changed.map(({ r, hash }) => ({
        externalId: r.external_id,
        slug: r.slug,
        status: r.status,
        title: r.title,
        description: r.description,
        originalLang: r.original_lang,
        categoryId: refs.categoryIds.get(r.category)!,
        placeId: refs.placeIds.get(r.place)!,
        venueName: r.venue.name,
        venueLat: r.venue.lat,
        venueLon: r.venue.lon,
        timezone: r.timezone,
        entry: r.entry,
        priceMinor: r.price.amount_minor,
        currency: r.price.currency,
        audience: r.audience,
        crowd: r.crowd,
        eventLang: r.event_lang,
        contentHash: hash,
        version: NEXT_VERSION as unknown as number,
        updatedAt: new Date(),
      })),
    )
    .onConflictDoUpdate({ target: schema.events.externalId, set: excludedSet(schema.events, ['id', 'externalId']) })
    .returning({ id: schema.events.id, k: schema.events.externalId, version: schema.events.version });
  const idOf = new Map(written.map((w) => [w.k, w.id]));
  await dbTx.delete(schema.eventSchedules).where(
    inArray(
      schema.eventSchedules.eventId,
      written.map((w) => w.id),
    ),
  );
  const slots = changed.flatMap(({ r }) =>
    r.schedule.map((s, position) =>
      'weekly' in s
        ? {
            eventId: idOf.get(r.external_id)!,
            position,
            kind: 'weekly' as const,
            days: s.weekly.days,
            dateFrom: s.weekly.from,
            dateUntil: s.weekly.until,
            exceptDates: s.except,
            startTime: s.weekly.start,
            endTime: s.weekly.end,
          }
        : {
            eventId: idOf.get(r.external_id)!,
            position,
            kind: 'once' as const,
            date: s.date,
            startTime: s.start,
            endTime: s.end,
          },
    ),
  );
  if (slots.length) await dbTx.insert(schema.eventSchedules).values(slots);
  for (const w of written) outbox.push({ entity: 'event', entityId: w.id, version: w.version });
}
