import { asc } from 'drizzle-orm';
import { schema, type Db } from '@guest/db';
import type { ContentLanguage } from '@guest/catalog';
import { createTtlCache } from '../ttl-cache.ts';
import { groupAmenities, nameAmenities, type AmenityRow } from './groups.ts';

export interface AmenitiesServiceDeps {
  db: Db;
  /** Seconds the list is held in memory (REFERENCE_LIST_CACHE_TTL_S); 0 turns caching off. */
  cacheTtlS: number;
}

export type AmenitiesService = ReturnType<typeof createAmenitiesService>;

/** Amenities of spec 4.5: read from the catalog tables (they have no index), cached a short while. */
export function createAmenitiesService(deps: AmenitiesServiceDeps) {
  const cache = createTtlCache<AmenityRow[]>(deps.cacheTtlS);

  async function readAmenities(): Promise<AmenityRow[]> {
    const a = schema.amenities;
    const rows = await deps.db
      .select({ id: a.id, code: a.code, group: a.group, kinds: a.kinds, name: a.name })
      .from(a)
      .orderBy(asc(a.group), asc(a.code));
    return rows as AmenityRow[];
  }

  return {
    /** Amenities grouped, named in `lang`; only those applicable to `kind` when given. */
    async grouped(kind: string | null, lang: ContentLanguage) {
      const rows = await cache.get('all', readAmenities);
      return groupAmenities(rows, kind, lang);
    },
    /** The amenities `codes` names, in their order, named in `lang` (an unknown code named after itself). */
    async named(codes: readonly string[], lang: ContentLanguage) {
      if (!codes.length) return [];
      const rows = await cache.get('all', readAmenities);
      return nameAmenities(rows, codes, lang);
    },
  };
}
