import { z } from 'zod';
import { queryBool } from '@guest/http-kit';

/** Parameters shared by the places routes (spec 4.5). */

export const withTotalsParam = queryBool
  .default(false)
  .meta({ description: 'Fill `listings_total`: listings of the place together with every nested place.' });

/** Path of `/v1/places/{slug}`. */
export const PlaceSlugParams = z.object({ slug: z.string().min(1).max(200) });
