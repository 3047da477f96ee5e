import { z } from 'zod';
import { LISTING_KINDS } from '@guest/catalog';

/** Shapes of the amenities route (spec 4.5). */

export const AmenityResponse = z
  .object({
    code: z.string(),
    name: z.string(),
    kinds: z.array(z.enum(LISTING_KINDS)),
  })
  .meta({ id: 'AmenityResponse' });

export const AmenityGroupResponse = z
  .object({
    group: z.string().meta({ description: 'Group code.' }),
    name: z.string().meta({ description: 'Group name in the request language.' }),
    items: z.array(AmenityResponse),
  })
  .meta({ id: 'AmenityGroupResponse' });
