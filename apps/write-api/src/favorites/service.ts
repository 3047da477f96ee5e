import type { z } from 'zod';
import { sql } from 'drizzle-orm';
import { errors } from '@guest/http-kit';
import type { WriteDeps } from '../deps.ts';
import type { FavoriteResponse, FavoritesPage } from './schemas.ts';

type Cursor = { at: string; id: number };
const SCOPE = 'favorites';

/** The listings a guest saved (`/v1/me/favorites`); search cards show them as `is_favorite`. */
export function createFavoritesService({ database, cursors }: Pick<WriteDeps, 'database' | 'cursors'>) {
  const { db } = database;
  return {
    /**
     * Newest first; the cursor holds the last row's exact (microsecond) time and id. Only listings
     * published now, as search and PUT see the catalog: an archived or draft listing leaves the
     * list (its row stays, so it is back if published again), a deleted one has no row to join.
     */
    async list(
      accountId: string,
      lang: string,
      opts: { limit: number; cursor?: string | undefined },
    ): Promise<z.infer<typeof FavoritesPage>> {
      const after = opts.cursor ? cursors.decode<Cursor>(SCOPE, opts.cursor) : null;
      const { rows } = await db.execute<{
        listing_id: number;
        kind: string;
        title: string;
        added_at: string;
        at: string;
      }>(sql`
        select f.listing_id, l.kind, coalesce(l.title->>${lang}, l.title->>l.original_lang, l.title->>'en', '') as title,
               f.created_at as added_at, f.created_at::text as at
          from favorites f join listings l on l.id = f.listing_id and l.status = 'published'
         where f.account_id = ${accountId}
           and (${after?.at ?? null}::timestamptz is null
                or (f.created_at, f.listing_id) < (${after?.at ?? null}::timestamptz, ${after?.id ?? null}::bigint))
         order by f.created_at desc, f.listing_id desc
         limit ${opts.limit + 1}`);
      const page = rows.slice(0, opts.limit);
      const last = page[page.length - 1];
      const hasMore = rows.length > opts.limit;
      return {
        items: page.map((r) => ({
          listing_id: r.listing_id,
          kind: r.kind,
          title: r.title,
          added_at: new Date(r.added_at).toISOString(),
        })),
        next_cursor:
          hasMore && last ? cursors.encode(SCOPE, { at: last.at, id: last.listing_id } satisfies Cursor) : null,
        has_more: hasMore,
      };
    },

    /**
     * Idempotent: a second PUT keeps the first time. Only a published listing can be saved (a draft
     * or archived one is 404, as for one the catalog does not have). The no-op update on conflict
     * waits for and returns a row that a concurrent PUT of the same listing is inserting, where
     * `do nothing` would return no row and answer 404.
     */
    async add(accountId: string, listingId: number): Promise<z.infer<typeof FavoriteResponse>> {
      const { rows } = await db.execute<{ added_at: string }>(sql`
        insert into favorites (account_id, listing_id)
        select ${accountId}, id from listings where id = ${listingId} and status = 'published'
        on conflict (account_id, listing_id) do update set created_at = favorites.created_at
        returning created_at as added_at`);
      const row = rows[0];
      if (!row) throw errors.notFound('No such listing.');
      return { listing_id: listingId, is_favorite: true, added_at: new Date(row.added_at).toISOString() };
    },

    /** Idempotent: removing a listing that is not a favorite is fine too. */
    async remove(accountId: string, listingId: number): Promise<void> {
      await db.execute(sql`delete from favorites where account_id = ${accountId} and listing_id = ${listingId}`);
    },
  };
}

export type FavoritesService = ReturnType<typeof createFavoritesService>;
