import { z } from 'zod';
import { PLACE_LEVELS } from '@guest/catalog';
import { ListingCard, ListingPhoto, ListingPoint } from '../search/schemas.ts';

/** The listing page of DESIGN.md section 7: the card's fields and everything the page shows. */

const date = z.string().meta({ format: 'date' });

export const ListingAmenity = z
  .object({ code: z.string(), name: z.string().meta({ description: 'In the request language, else English.' }) })
  .meta({ id: 'ListingAmenity' });

export const ListingAttribute = z
  .object({
    code: z
      .string()
      .meta({ description: 'The attribute as the catalog format names it in the kind’s block (`bedrooms`).' }),
    name: z.string().meta({ description: 'The attribute’s name in the request language.' }),
    // One type per field, so that every client generator maps each to one type of its language
    // (a union of a number, a flag, a string and a list made the Java client uncompilable).
    number: z.number().nullable().meta({ description: 'The value of a numeric attribute; null for the others.' }),
    flag: z.boolean().nullable().meta({ description: 'The value of a yes/no attribute; null for the others.' }),
    codes: z
      .array(z.string())
      .meta({ description: 'The code of a coded attribute, or each code of a list; empty for numbers and flags.' }),
    code_names: z
      .array(z.string())
      .meta({ description: 'The names of `codes` in the request language, in the same order.' }),
  })
  .meta({ id: 'ListingAttribute' });

export const ListingPathPlace = z
  .object({ id: z.number().int(), slug: z.string(), name: z.string(), level: z.enum(PLACE_LEVELS) })
  .meta({ id: 'ListingPathPlace' });

export const ListingLocation = z
  .object({
    mode: z.enum(['exact', 'approximate', 'city_only']).meta({
      description:
        '`exact`: the point is the place itself; `approximate`: near it (the host moved it a little); ' +
        '`city_only`: no point is given, only the area of the listing’s place.',
    }),
    point: ListingPoint.nullable().meta({ description: 'Null for `city_only`.' }),
    area: z
      .tuple([z.number(), z.number(), z.number(), z.number()])
      .nullable()
      .meta({
        description:
          '`city_only` only (null otherwise): `[minLon, minLat, maxLon, maxLat]` of the listing’s place, the box around ' +
          'its centre and the located listings it holds; null when the place has neither.',
      }),
  })
  .meta({ id: 'ListingLocation' });

export const ListingPrice = z
  .object({
    amount_minor: z.number().int(),
    currency: z.string(),
    unit: z
      .string()
      .meta({ description: 'What the price is for: `night`, `month`, `person`, `hour`, `day`, `trip`, `item`.' }),
  })
  .meta({ id: 'ListingPrice' });

export const ConvertedPrice = z
  .object({
    amount_minor: z.number().int(),
    currency: z.string(),
    approximate: z
      .literal(true)
      .meta({ description: 'Converted through the latest FX rates: a hint, never what is charged.' }),
  })
  .meta({ id: 'ConvertedPrice' });

export const BlockedRange = z
  .object({
    from: date.meta({ description: 'First day not bookable.' }),
    to: date.meta({ description: 'Day after the last day not bookable (exclusive).' }),
  })
  .meta({ id: 'BlockedRange' });

export const ListingAvailability = z
  .object({
    date_from: date,
    date_to: date,
    guests: z.number().int(),
    free: z.boolean().meta({ description: 'True when no blocked day falls in the range and the guests fit.' }),
    reason: z.enum(['blocked', 'over_capacity']).nullable().meta({
      description:
        'Why it is not free: a blocked day in the range, or more guests than the listing takes; null when free.',
    }),
    capacity: z.number().int().nullable().meta({
      description: 'Most guests: `max_guests` of a stay, the group size of an experience; null for kinds without one.',
    }),
    nights: z.number().int().meta({ description: 'Days from `date_from` to `date_to` (nights of a stay).' }),
    units: z.number().meta({
      description: 'How many times the price is counted in `total_minor` (see the operation); a fraction per month.',
    }),
    total_minor: z
      .number()
      .int()
      .meta({ description: 'In the listing’s currency: the price times `units`, in whole minor units.' }),
    currency: z.string(),
    converted_total: ConvertedPrice.nullable().meta({
      description: '`total_minor` in the requested `currency`; null without a rate.',
    }),
  })
  .meta({ id: 'ListingAvailability' });

export const NotModified = z
  .null()
  .meta({ description: 'Not modified: the `If-None-Match` ETag is current. No body.' });

export const ListingPageResponse = ListingCard.omit({ distance_m: true, related: true })
  .extend({
    description: z.string().meta({ description: 'Full description, in the language of `description_lang`.' }),
    description_lang: z
      .string()
      .meta({ description: 'Language of `description` (request language, else English, else the original).' }),
    photos: z.array(ListingPhoto).meta({ description: 'Every photo in the host’s order, each in three sizes.' }),
    amenities: z.array(ListingAmenity),
    attributes: z.array(ListingAttribute).meta({ description: 'The kind’s own attributes, in catalog order.' }),
    languages: z.array(z.string()).meta({ description: 'Languages the host speaks.' }),
    place_path: z.array(ListingPathPlace).meta({ description: 'From the country down to the listing’s own place.' }),
    location: ListingLocation,
    price: ListingPrice,
    converted: ConvertedPrice.nullable().meta({
      description: 'The price in the requested `currency` (default THB); null when no rate is known.',
    }),
    blocked: z.array(BlockedRange).meta({
      description:
        'Days not bookable from today (in the place’s zone) for the calendar window, clipped to it, earliest first.',
    }),
    calendar: z
      .object({ from: date, to: date.meta({ description: 'Exclusive.' }), timezone: z.string() })
      .meta({ description: 'The window `blocked` covers and the zone its days are in.' }),
    availability: ListingAvailability.nullable().meta({ description: 'With `date_from` only; null otherwise.' }),
  })
  .meta({ id: 'ListingPageResponse' });
export type ListingPageBody = z.infer<typeof ListingPageResponse>;
