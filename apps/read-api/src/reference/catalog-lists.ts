import { asc, eq } from 'drizzle-orm';
import { schema, type Db } from '@guest/db';
import type { Texts } from '@guest/catalog';

/** Reference lists that have no index: read from the catalog tables (read-only). */

export type CategoryKind = 'experience' | 'service' | 'transport' | 'food' | 'event';

export interface CategoryRow {
  id: number;
  code: string;
  kind: CategoryKind;
  name: Texts;
}

export async function readCategories(db: Db, kind: CategoryKind): Promise<CategoryRow[]> {
  const c = schema.categories;
  const rows = await db
    .select({ id: c.id, code: c.code, kind: c.kind, name: c.name })
    .from(c)
    .where(eq(c.kind, kind))
    .orderBy(asc(c.code));
  return rows as CategoryRow[];
}

export interface AmenityRow {
  id: number;
  code: string;
  group: string;
  kinds: string[];
  name: Texts;
}

export async function readAmenities(db: Db): Promise<AmenityRow[]> {
  const a = schema.amenities;
  const rows = await db
    .select({ id: a.id, code: a.code, group: a.group, kinds: a.kinds, name: a.name })
    .from(a)
    .orderBy(asc(a.group), asc(a.code));
  return rows as AmenityRow[];
}
