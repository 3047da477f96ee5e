import { asc, eq } from 'drizzle-orm';
import { schema, type Db } from '@guest/db';
import { pickText, type CategoryKind, type ContentLanguage, type Texts } from '@guest/catalog';
import type { SearchEngine } from '@guest/search-engine';
import { createTtlCache } from '../ttl-cache.ts';
import { categoryCountsQuery } from './query.ts';

interface CategoryRow {
  id: number;
  code: string;
  kind: CategoryKind;
  name: Texts;
}

export interface CategoryBody {
  id: number;
  code: string;
  kind: CategoryKind;
  name: string;
  lang: string;
  listings_count?: number;
}

export interface CategoriesServiceDeps {
  db: Db;
  engine: SearchEngine;
  /** Alias of the listings index, which the counts are read from. */
  indices: { listings: string };
  /** Seconds a kind's list is held in memory (REFERENCE_LIST_CACHE_TTL_S); 0 turns caching off. */
  cacheTtlS: number;
}

export type CategoriesService = ReturnType<typeof createCategoriesService>;

/**
 * Categories of listings and of events (spec 4.5, 4.8): read from the catalog tables (they have no
 * index) and cached in memory a short while; per-category listing counts from the listings index.
 */
export function createCategoriesService(deps: CategoriesServiceDeps) {
  const cache = createTtlCache<CategoryRow[]>(deps.cacheTtlS);

  async function readCategories(kind: CategoryKind): Promise<CategoryRow[]> {
    const c = schema.categories;
    const rows = await deps.db
      .select({ id: c.id, code: c.code, kind: c.kind, name: c.name })
      .from(c)
      .where(eq(c.kind, kind))
      .orderBy(asc(c.code));
    return rows as CategoryRow[];
  }

  /** Published listings per category of one kind: the listings alias is the feed's boundary. */
  async function listingCounts(kind: CategoryKind, ids: number[]): Promise<Map<number, number>> {
    const res = await deps.engine.search(deps.indices.listings, categoryCountsQuery(kind, ids));
    return new Map((res.aggregations?.categories?.buckets ?? []).map((b: any) => [Number(b.key), b.doc_count]));
  }

  return {
    /** The categories of one kind by code, named in `lang` (English fallback), with counts when asked. */
    async list(kind: CategoryKind, opts: { withCounts: boolean; lang: ContentLanguage }): Promise<CategoryBody[]> {
      const rows = await cache.get(kind, () => readCategories(kind));
      const counts = opts.withCounts
        ? await listingCounts(
            kind,
            rows.map((r) => r.id),
          )
        : null;
      return rows.map((r) => {
        const name = pickText(r.name, opts.lang, opts.lang);
        return {
          id: r.id,
          code: r.code,
          kind,
          name: name?.text ?? r.code,
          lang: name?.lang ?? 'en',
          ...(counts ? { listings_count: counts.get(r.id) ?? 0 } : {}),
        };
      });
    },
  };
}
