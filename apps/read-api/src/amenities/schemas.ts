import { z } from 'zod';

/** Shapes of the amenities route (spec 4.5). */

export const AmenityResponse = z
  .object({
    code: z.string(),
    name: z.string(),
    kinds: z.array(z.enum(['stay', 'experience', 'service', 'transport', 'food'])),
  })
  .meta({ id: 'AmenityResponse' });

export const AmenityGroupResponse = z
  .object({
    group: z.string().meta({ description: 'Group code.' }),
    name: z.string().meta({ description: 'Group name in the request language.' }),
    items: z.array(AmenityResponse),
  })
  .meta({ id: 'AmenityGroupResponse' });
