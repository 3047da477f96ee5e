import { z } from 'zod';

/** Shapes of the places routes (spec 4.5). */

export const PlacePoint = z
  .object({ lat: z.number(), lon: z.number() })
  .meta({ id: 'PlacePoint', description: 'Centre of the place (WGS84 degrees); null when the catalog has none.' });

export const PlaceResponse = z
  .object({
    id: z.number().int(),
    parent_id: z.number().int().nullable(),
    level: z.enum(['country', 'region', 'district', 'area']),
    slug: z.string(),
    name: z.string().meta({ description: 'In the request language, else English.' }),
    listings_count: z.number().int().meta({ description: 'Published listings attached to the place itself.' }),
    listings_total: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'Published listings of the place and every nested place; null unless `with_totals=true`.' }),
    name_full: z.string().nullable().meta({ description: 'e.g. "Kata, Phuket, Thailand", in the request language.' }),
    timezone: z.string().nullable(),
    currency: z.string().nullable(),
    center: PlacePoint.nullable(),
  })
  .meta({ id: 'PlaceResponse' });

export const PlaceCardResponse = PlaceResponse.extend({
  path: z.array(PlaceResponse).default([]).meta({ description: 'Ancestors from the top (country first).' }),
  children: z.array(PlaceResponse).default([]).meta({ description: 'Places directly inside this one.' }),
  counts: z
    .record(z.string(), z.number().int())
    .default({})
    .meta({
      description:
        'Published listings per kind (`stay`, `experience`, `service`, `transport`, `food`) in this place and every ' +
        'nested place, plus `events`: distinct events with an occurrence that has not ended.',
    }),
}).meta({ id: 'PlaceCardResponse' });

export type PlaceResponseT = z.infer<typeof PlaceResponse>;
