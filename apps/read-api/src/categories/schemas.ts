import { z } from 'zod';
import { CATEGORY_KINDS } from '@guest/catalog';

/** Shapes of the categories routes (spec 4.5, 4.8). */

export const CategoryResponse = z
  .object({
    id: z.number().int(),
    code: z.string(),
    kind: z.enum(CATEGORY_KINDS),
    name: z.string(),
    lang: z.string().meta({ description: 'Language of `name`.' }),
    listings_count: z
      .number()
      .int()
      .optional()
      .meta({ description: "Only with `with_counts=true`: published listings in the category (the feed's boundary)." }),
  })
  .meta({ id: 'CategoryResponse' });
