import { z } from 'zod';
import { CONTENT_LANGUAGES } from './languages.ts';
import { attributeRecordValue, blockRecordSchema } from './listing-attributes.ts';
import {
  CATEGORY_KINDS,
  EVENT_AUDIENCES,
  EVENT_CROWDS,
  EVENT_ENTRIES,
  EVENT_LANGS,
  LISTING_KINDS,
  LOCATION_MODES,
  PLACE_LEVELS,
  RECORD_STATUSES,
  WEEKDAYS,
} from './vocabulary.ts';

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

const blockedRange = z
  .strictObject({ from: isoDate, to: isoDate })
  .refine((r) => r.from < r.to, '`to` must be after `from` (to is exclusive)');

export const listingRecord = z
  .strictObject({
    type: z.literal('listing'),
    external_id: externalId,
    kind: z.enum(LISTING_KINDS),
    status: z.enum(RECORD_STATUSES),
    title: requiredTexts,
    description: textsSchema.default({}),
    original_lang: lang,
    place: externalId,
    location: z.strictObject({
      lat: lat.nullable().optional(),
      lon: lon.nullable().optional(),
      mode: z.enum(LOCATION_MODES),
    }),
    price: z.strictObject({
      amount_minor: z.number().int().min(0),
      currency: currencyCode,
      unit: attributeRecordValue('price_unit'),
    }),
    rating: z
      .strictObject({
        avg: attributeRecordValue('rating_avg').unwrap(),
        count: attributeRecordValue('rating_count'),
      })
      .optional(),
    photos: z
      .array(
        z.strictObject({ thumb: z.string().min(1), medium: z.string().min(1), large: z.string().min(1).nullable() }),
      )
      .default([]),
    instant_book: attributeRecordValue('instant_book').default(false),
    languages: attributeRecordValue('languages').default([]),
    categories: z.array(code).default([]),
    amenities: attributeRecordValue('amenities').default([]),
    blocked: z.array(blockedRange).default([]),
    created_at: instant,
    stay: blockRecordSchema('stay').optional(),
    experience: blockRecordSchema('experience').optional(),
    service: blockRecordSchema('service').optional(),
    transport: blockRecordSchema('transport').optional(),
    food: blockRecordSchema('food').optional(),
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
  status: z.enum(RECORD_STATUSES),
  title: requiredTexts,
  description: textsSchema.default({}),
  original_lang: lang,
  category: code,
  place: externalId,
  venue: z.strictObject({ name: requiredTexts, lat, lon }),
  timezone,
  entry: z.enum(EVENT_ENTRIES),
  price: z.strictObject({ amount_minor: z.number().int().min(0), currency: currencyCode }),
  audience: z.enum(EVENT_AUDIENCES),
  crowd: z.enum(EVENT_CROWDS),
  event_lang: z.enum(EVENT_LANGS),
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
