import type { Dsl } from '@guest/search-engine';

/** Published listings per category of one kind: the listings alias is the feed's boundary. */
export function categoryCountsQuery(kind: string, categoryIds: number[]): Dsl {
  return {
    size: 0,
    track_total_hits: false,
    query: { bool: { filter: [{ term: { kind } }] } },
    aggs: {
      categories: { terms: { field: 'category_ids', size: Math.max(categoryIds.length, 1), include: categoryIds } },
    },
  };
}
