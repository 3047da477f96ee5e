import { z } from 'zod';
import { CONTENT_LANGUAGES } from './languages.ts';

/**
 * The catalog interchange format (NDJSON, one record a line; see indexer/README.md and
 * catalog-format.md). One zod schema per record type; types flow from these schemas.
 */

const isoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date YYYY-MM-DD')
  .refine(
    (v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v),
    'is not a calendar date',
  );
const instant = z.iso.datetime({ offset: true });
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time HH:MM');
const currencyCode = z.string().regex(/^[A-Z]{3}$/, 'must be a 3-letter currency code');
const code = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'must be a lowercase code');
const externalId = z.string().min(1).max(200);
const slug = z.string().regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be a lowercase slug');
const lang = z.enum(CONTENT_LANGUAGES);
const timezone = z.string().refine((tz) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}, 'is not an IANA time zone');

export const textsSchema = z.strictObject({
  en: z.string().min(1).optional(),
  ru: z.string().min(1).optional(),
  th: z.string().min(1).optional(),
  'zh-Hans': z.string().min(1).optional(),
});
const requiredTexts = textsSchema.refine(
  (t) => Object.values(t).some(Boolean),
  'needs a text in at least one language',
);
const lat = z.number().min(-90).max(90);
const lon = z.number().min(-180).max(180);

export const currencyRecord = z.strictObject({
  type: z.literal('currency'),
  code: currencyCode,
  name: requiredTexts,
  symbol: z.string().max(8).optional(),
  minor_units: z.number().int().min(0).max(4),
});

export const fxRateRecord = z.strictObject({
  type: z.literal('fx_rate'),
  base: currencyCode,
  date: isoDate,
  source: z.string().optional(),
  fetched_at: instant.optional(),
  rates: z.record(currencyCode, z.number().positive()),
});

export const PLACE_LEVELS = ['country', 'region', 'district', 'area'] as const;
export const placeRecord = z.strictObject({
  type: z.literal('place'),
  external_id: externalId,
  parent: externalId.nullable().optional(),
  level: z.enum(PLACE_LEVELS),
  slug,
  name: requiredTexts,
  timezone: timezone.optional(),
  currency: currencyCode.optional(),
  center: z.strictObject({ lat, lon }).optional(),
  popular: z.boolean().optional(),
});

export const LISTING_KINDS = ['stay', 'experience', 'service', 'transport', 'food'] as const;
export type ListingKind = (typeof LISTING_KINDS)[number];

/** Kinds a category belongs to: every listing kind but stays (they have property types), and events. */
export const CATEGORY_KINDS = ['experience', 'service', 'transport', 'food', 'event'] as const satisfies ReadonlyArray<
  Exclude<ListingKind, 'stay'> | 'event'
>;
export type CategoryKind = (typeof CATEGORY_KINDS)[number];

export const categoryRecord = z.strictObject({
  type: z.literal('category'),
  kind: z.enum(CATEGORY_KINDS),
  code,
  name: requiredTexts,
});

export const amenityRecord = z.strictObject({
  type: z.literal('amenity'),
  code,
  group: code,
  kinds: z.array(z.enum(LISTING_KINDS)).min(1),
  name: requiredTexts,
});

const stayBlock = z.strictObject({
  property_type: code,
  room_type: code,
  bedrooms: z.number().int().min(0).max(100),
  beds: z.number().int().min(0).max(200),
  bathrooms: z.number().int().min(0).max(100),
  max_guests: z.number().int().min(1).max(500),
  beach_distance_m: z.number().int().min(0).nullable().optional(),
  pets_allowed: z.boolean(),
  smoking_allowed: z.boolean(),
  children_allowed: z.boolean(),
  parties_allowed: z.boolean(),
  long_stay: z.boolean(),
});
const experienceBlock = z.strictObject({
  duration_min: z.number().int().min(1),
  group_size_max: z.number().int().min(1),
  same_day: z.boolean(),
});
const serviceBlock = z.strictObject({ duration_min: z.number().int().min(1), same_day: z.boolean() });
const transportBlock = z.strictObject({
  vehicle_kind: code,
  transmission: z.enum(['automatic', 'manual']),
  seats: z.number().int().min(1).max(100),
});
const foodBlock = z.strictObject({ format: code, diets: z.array(code), alcohol: z.boolean() });

const blockedRange = z
  .strictObject({ from: isoDate, to: isoDate })
  .refine((r) => r.from < r.to, '`to` must be after `from` (to is exclusive)');

export const listingRecord = z
  .strictObject({
    type: z.literal('listing'),
    external_id: externalId,
    kind: z.enum(LISTING_KINDS),
    status: z.enum(['draft', 'published', 'archived']),
    title: requiredTexts,
    description: textsSchema.default({}),
    original_lang: lang,
    place: externalId,
    location: z.strictObject({
      lat: lat.nullable().optional(),
      lon: lon.nullable().optional(),
      mode: z.enum(['exact', 'approximate', 'city_only']),
    }),
    price: z.strictObject({
      amount_minor: z.number().int().min(0),
      currency: currencyCode,
      unit: z.enum(['night', 'month', 'person', 'hour', 'day', 'trip', 'item']),
    }),
    rating: z.strictObject({ avg: z.number().min(0).max(5).nullable(), count: z.number().int().min(0) }).optional(),
    photos: z
      .array(
        z.strictObject({ thumb: z.string().min(1), medium: z.string().min(1), large: z.string().min(1).nullable() }),
      )
      .default([]),
    instant_book: z.boolean().default(false),
    languages: z.array(lang).default([]),
    categories: z.array(code).default([]),
    amenities: z.array(code).default([]),
    blocked: z.array(blockedRange).default([]),
    created_at: instant,
    stay: stayBlock.optional(),
    experience: experienceBlock.optional(),
    service: serviceBlock.optional(),
    transport: transportBlock.optional(),
    food: foodBlock.optional(),
  })
  .superRefine((l, ctx) => {
    const blocks = LISTING_KINDS.filter((k) => l[k] !== undefined);
    if (blocks.length !== 1 || blocks[0] !== l.kind) {
      ctx.addIssue({
        code: 'custom',
        path: [l.kind],
        message: `a ${l.kind} listing needs exactly one "${l.kind}" block and no other kind block`,
      });
    }
    const hasPoint = l.location.lat != null && l.location.lon != null;
    if (l.location.mode !== 'city_only' && !hasPoint) {
      ctx.addIssue({
        code: 'custom',
        path: ['location'],
        message: 'lat and lon are required unless mode is city_only',
      });
    }
    const froms = new Set(l.blocked.map((b) => b.from));
    if (froms.size !== l.blocked.length) {
      ctx.addIssue({ code: 'custom', path: ['blocked'], message: 'two blocked ranges start on the same day' });
    }
  });

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const onceSlot = z.strictObject({ date: isoDate, start: hhmm, end: hhmm });
const weeklySlot = z.strictObject({
  weekly: z
    .strictObject({
      days: z.array(z.enum(WEEKDAYS)).min(1),
      start: hhmm,
      end: hhmm,
      from: isoDate,
      until: isoDate,
    })
    .refine((w) => w.from <= w.until, '`until` must not be before `from`'),
  except: z.array(isoDate).default([]),
});

export const eventRecord = z.strictObject({
  type: z.literal('event'),
  external_id: externalId,
  slug,
  status: z.enum(['draft', 'published', 'archived']),
  title: requiredTexts,
  description: textsSchema.default({}),
  original_lang: lang,
  category: code,
  place: externalId,
  venue: z.strictObject({ name: requiredTexts, lat, lon }),
  timezone,
  entry: z.enum(['free', 'paid']),
  price: z.strictObject({ amount_minor: z.number().int().min(0), currency: currencyCode }),
  audience: z.enum(['family', 'adults']),
  crowd: z.enum(['intimate', 'small', 'medium', 'large']),
  event_lang: z.enum(['ru', 'en', 'th', 'zh-Hans', 'multi']),
  schedule: z.array(z.union([onceSlot, weeklySlot])).min(1),
});

export const catalogRecord = z.discriminatedUnion('type', [
  currencyRecord,
  fxRateRecord,
  placeRecord,
  categoryRecord,
  amenityRecord,
  listingRecord,
  eventRecord,
]);

export type CurrencyRecord = z.infer<typeof currencyRecord>;
export type FxRateRecord = z.infer<typeof fxRateRecord>;
export type PlaceRecord = z.infer<typeof placeRecord>;
export type CategoryRecord = z.infer<typeof categoryRecord>;
export type AmenityRecord = z.infer<typeof amenityRecord>;
export type ListingRecord = z.infer<typeof listingRecord>;
export type EventRecord = z.infer<typeof eventRecord>;
export type ScheduleSlot = EventRecord['schedule'][number];
export type CatalogRecord = z.infer<typeof catalogRecord>;
export type CatalogRecordInput = z.input<typeof catalogRecord>;
