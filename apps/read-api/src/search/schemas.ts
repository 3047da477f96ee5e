import { z } from 'zod';
import { UnmatchedTerms } from '../query-understanding/schemas.ts';
import { LANGUAGES, pageOf } from '@guest/http-kit';
import { LISTING_FACETS, LISTING_KINDS, PLACE_LEVELS, PRICE_UNITS, type FacetParam } from '@guest/catalog';

/** Response shapes of spec 4.7 (fields as DESIGN.md section 4; more are welcome). */

export const ListingPoint = z.object({ lat: z.number(), lon: z.number() }).meta({ id: 'ListingPoint' });

export const ListingPhoto = z
  .object({
    thumb: z.string().meta({ description: '480 px.' }),
    medium: z.string().meta({ description: '1600 px.' }),
    large: z.string().nullable().meta({ description: '2560 px; not always there: fall back to `medium`.' }),
  })
  .meta({ id: 'ListingPhoto' });

export const ListingCard = z
  .object({
    id: z.number().int(),
    kind: z.enum(LISTING_KINDS),
    title: z.string().meta({
      description: 'In the request language, else English, else the language the host wrote it in (see `lang`).',
    }),
    place: z
      .object({ id: z.number().int(), slug: z.string(), name: z.string() })
      .meta({ id: 'ListingPlace', description: 'The listing’s own place, its name in the request language.' }),
    point: ListingPoint.nullable().meta({ description: 'Null for objects shown at city level only (`city_only`).' }),
    price_minor: z.number().int(),
    currency: z.string(),
    price_unit: z.string(),
    rating_avg: z.number().nullable(),
    rating_count: z.number().int(),
    instant_book: z.boolean(),
    photo: ListingPhoto.nullable().meta({ description: 'The first photo; null when there is none.' }),
    lang: z.enum(LANGUAGES).meta({ description: 'Language of `title`.' }),
    translated: z
      .boolean()
      .meta({ description: 'Translation marker: true when `title` is not in the language the host wrote in.' }),
    is_favorite: z.boolean().optional().meta({ description: 'Only for signed-in guests.' }),
    distance_m: z.number().int().optional().meta({ description: 'Metres from `near`, when `near` is given.' }),
    total: z
      .object({
        nights: z.number().int().meta({ description: 'Nights from `date_from` to `date_to` (one without `date_to`).' }),
        total_minor: z.number().int().meta({ description: 'The price of all of them, in `currency`.' }),
        currency: z.string().meta({ description: 'The listing’s own currency (that of `price_minor`).' }),
      })
      .optional()
      .meta({
        id: 'CardTotal',
        description:
          'Feed only, with `date_from`: what the dates cost, for listings priced per night or day (each night) or ' +
          'per month (a month is 30 nights); absent for prices that do not follow the dates (a person, an hour, a ' +
          'trip, an item).',
      }),
    related: z
      .literal(true)
      .optional()
      .meta({
        description:
          'Feed only: present on a listing that does not match `q` exactly but is related to it (in the region of the ' +
          'place named, or of the kind of the category or property type named). The feed in relevance order lists ' +
          'them after every exact match, only when fewer listings than the server setting SEARCH_RELATED_BELOW ' +
          '(default 10) match exactly; when the words of `q` ask for an order ("cheap"), each part is in that ' +
          'order. `/v1/search/count` and the map count exact matches only.',
      }),
  })
  .meta({ id: 'ListingCard' });
export type ListingCardBody = z.infer<typeof ListingCard>;

export const FeedResponse = pageOf(ListingCard)
  .extend({ unmatched_terms: UnmatchedTerms })
  .meta({ id: 'FeedResponse' });

export const CountResponse = z.object({ count: z.number().int() }).meta({ id: 'CountResponse' });

export const MapPoint = z
  .object({
    id: z.number().int(),
    kind: z.enum(LISTING_KINDS),
    lat: z.number(),
    lon: z.number(),
    price_minor: z.number().int(),
    currency: z.string(),
  })
  .meta({ id: 'MapPoint' });
export type MapPointBody = z.infer<typeof MapPoint>;

export const MapCluster = z
  .object({
    lat: z.number().meta({ description: 'Centre (centroid) of the objects in the cluster.' }),
    lon: z.number(),
    count: z.number().int(),
    bbox: z
      .tuple([z.number(), z.number(), z.number(), z.number()])
      .meta({ description: '`[minLon, minLat, maxLon, maxLat]` of the objects in the cluster: zoom to it.' }),
  })
  .meta({ id: 'MapCluster' });

export const MapResponse = z
  .object({
    clusters: z.array(MapCluster).meta({ description: 'Up to zoom 12; empty beyond.' }),
    points: z.array(MapPoint).meta({ description: 'Beyond zoom 12; empty up to it.' }),
    truncated: z.boolean().default(false).meta({ description: 'True when not every object could be returned.' }),
    total: z.number().int().default(0).meta({ description: 'Objects on the map matching the filters.' }),
  })
  .meta({ id: 'MapResponse' });

const histogram = z.array(z.number().int()).meta({
  description:
    '24 segments on a quadratic scale from zero: segment i holds prices from max·(i/24)² to max·((i+1)/24)²; empty when there are no prices.',
});

export const PriceUnitRange = z
  .object({
    price_unit: z.enum(PRICE_UNITS).meta({ description: 'What the prices of this scale are for.' }),
    count: z.number().int().meta({ description: 'Priced listings of the scope with this unit.' }),
    min_minor: z.number().int().nullable(),
    max_minor: z.number().int().nullable(),
    histogram,
  })
  .meta({
    id: 'PriceUnitRange',
    description:
      'The price range and histogram of the listings priced per one unit, on a scale of their own (a price per ' +
      'night and a price per month are not comparable): a price filter set on it goes with `price_unit`.',
  });

export const PriceRangeResponse = z
  .object({
    currency: z.string().nullable(),
    min_minor: z.number().int().nullable(),
    max_minor: z.number().int().nullable(),
    histogram,
    units: z
      .array(PriceUnitRange)
      .meta({ description: 'The same for each price unit of the scope, most listings first.' }),
  })
  .meta({ id: 'PriceRangeResponse' });

const FilterValue = z
  .object({
    code: z.string().meta({ description: 'The value as the filter takes it.' }),
    count: z.number().int().meta({ description: 'Published listings in the scope with this value.' }),
  })
  .meta({ id: 'FilterValue' });

const values = (filter: string) =>
  z.array(FilterValue).meta({ description: `Values of \`${filter}\`, most used first.` });

export const FilterValuesResponse = z
  .object(
    Object.fromEntries(LISTING_FACETS.map((f) => [f.param, values(f.param)])) as Record<
      FacetParam,
      ReturnType<typeof values>
    >,
  )
  .meta({
    id: 'FilterValuesResponse',
    description:
      'The codes the catalog uses for the search filters that have no reference list of their own, with counts. ' +
      'Names for them are in the interface dictionary (`/v1/i18n`), e.g. `listing.property_type.villa`.',
  });

export const PlaceSuggestion = z
  .object({
    id: z.number().int(),
    slug: z.string(),
    name: z.string(),
    name_full: z.string().nullable(),
    level: z.enum(PLACE_LEVELS),
  })
  .meta({ id: 'PlaceSuggestion' });

export const ListingSuggestion = z
  .object({
    id: z.number().int(),
    kind: z.enum(LISTING_KINDS),
    title: z.string(),
    place_name: z.string(),
  })
  .meta({ id: 'ListingSuggestion' });

export const CategorySuggestion = z
  .object({
    id: z.number().int().meta({ description: 'The category, as `category_id` takes it.' }),
    code: z.string(),
    kind: z.enum(LISTING_KINDS).meta({ description: 'The kind of listing the category is of (`kind`).' }),
    name: z.string().meta({ description: 'In the request language, else English.' }),
  })
  .meta({ id: 'CategorySuggestion' });

export const SuggestResponse = z
  .object({
    places: z.array(PlaceSuggestion),
    listings: z.array(ListingSuggestion).meta({
      description: 'Best first; listings a guest could not tell apart (the same title in the same place) once.',
    }),
    categories: z.array(CategorySuggestion).meta({
      description:
        'Categories a word of `q` names, in any language or through a synonym ("diving", "массаж"): a search ' +
        'of `kind` and `category_id`.',
    }),
  })
  .meta({ id: 'SuggestResponse' });
