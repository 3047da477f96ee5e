import type pg from 'pg';

/**
 * The signed-in guest's favorites among the listings of one page: one primary-key lookup in
 * Postgres (a per-user overlay on the index answer).
 */
export async function favoriteIds(pool: pg.Pool, accountId: string, listingIds: number[]): Promise<Set<number>> {
  if (!listingIds.length) return new Set();
  const { rows } = await pool.query<{ listing_id: number }>({
    name: 'search-favorites-of-page',
    text: 'select listing_id from favorites where account_id = $1 and listing_id = any($2::bigint[])',
    values: [accountId, listingIds],
  });
  return new Set(rows.map((r) => Number(r.listing_id)));
}
