import { bigint, index, pgTable, primaryKey, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * A guest's saved listings. Written by the write API (`PUT/DELETE /v1/me/favorites/{id}`) and
 * read by the read API for `is_favorite` on cards, so it lives in the shared schema.
 */
export const favorites = pgTable(
  'favorites',
  {
    accountId: uuid('account_id').notNull(),
    listingId: bigint('listing_id', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.listingId] }),
    index('favorites_account_created_idx').on(t.accountId, t.createdAt),
  ],
);
