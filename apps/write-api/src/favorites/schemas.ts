import { z } from 'zod';
import { pageOf } from '@guest/http-kit';

export const FavoriteItem = z
  .object({
    listing_id: z.number().int(),
    kind: z.string(),
    title: z
      .string()
      .meta({ description: 'In the request language when the listing has it, else its original language.' }),
    added_at: z.iso.datetime(),
  })
  .meta({ id: 'FavoriteItem' });

export const FavoritesPage = pageOf(FavoriteItem).meta({ id: 'FavoritesPage' });

export const FavoriteResponse = z
  .object({ listing_id: z.number().int(), is_favorite: z.literal(true), added_at: z.iso.datetime() })
  .meta({ id: 'FavoriteResponse' });

export const ListingIdParams = z.object({ listing_id: z.coerce.number().int().min(1).max(2_147_483_647) });
