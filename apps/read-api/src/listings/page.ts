import {
  blockAttributes,
  convertMinor,
  photoUrl,
  pickText,
  type ContentLanguage,
  type FxTable,
  type ListingDocument,
  type PlaceDocument,
  type PLACE_LEVELS,
} from '@guest/catalog';
import { nameIn, toListingCard } from '../search/cards.ts';
import type { ListingPageBody } from './schemas.ts';
import { blockedWithin, priceStay, type DayRange, type PriceUnit, type StayQuestion } from './stay.ts';

/** Fields of `_source` the listing page reads (search helpers stay in the engine). */
export const PAGE_SOURCE = [
  'id',
  'kind',
  'title',
  'description',
  'original_lang',
  'place',
  'place_path_ids',
  'location',
  'location_mode',
  'place_center',
  'price_minor',
  'currency',
  'price_unit',
  'rating_avg',
  'rating_count',
  'instant_book',
  'languages',
  'amenities',
  'blocked',
  'cover_photo',
  'photos',
  'stay',
  'experience',
  'service',
  'transport',
  'food',
] as const;
export type PageSource = Pick<ListingDocument, (typeof PAGE_SOURCE)[number]>;

/** What the page is shaped from besides the document: all read by the service. */
export interface PageContext {
  lang: ContentLanguage;
  /** Interface strings of the request language (English filling gaps): attribute and value names. */
  strings: Readonly<Record<string, string>>;
  /** The documents of the places on the listing's path, any order. */
  places: PlaceDocument[];
  amenities: Array<{ code: string; name: string }>;
  fx: FxTable;
  /** Currency to convert to. */
  currency: string;
  window: DayRange;
  timezone: string;
  /** `[minLon, minLat, maxLon, maxLat]` of a `city_only` listing's place; null otherwise. */
  area: [number, number, number, number] | null;
  stay: StayQuestion | null;
  /** The signed-in guest's favorites among this listing (null when signed out). */
  favorites: ReadonlySet<number> | null;
  base: string | undefined;
}

/** Most guests a listing takes: a stay's `max_guests`, an experience's group size; null for other kinds. */
export function capacityOf(doc: PageSource): number | null {
  if (doc.kind === 'stay') return doc.stay?.max_guests ?? null;
  if (doc.kind === 'experience') return doc.experience?.group_size_max ?? null;
  return null;
}

function durationOf(doc: PageSource): number | null {
  if (doc.kind === 'experience') return doc.experience?.duration_min ?? null;
  if (doc.kind === 'service') return doc.service?.duration_min ?? null;
  return null;
}

/** The code or codes of an attribute's value: none for a number or a flag. */
function codesOf(value: unknown): string[] {
  if (Array.isArray(value)) return value as string[];
  return typeof value === 'string' ? [value] : [];
}

/** The kind's block as a list: each attribute with its name and, for codes, their names. */
function attributesOf(doc: PageSource, strings: Readonly<Record<string, string>>): ListingPageBody['attributes'] {
  const block = doc[doc.kind] as Record<string, unknown> | null;
  if (!block) return [];
  return blockAttributes(doc.kind).flatMap(([code, a]) => {
    const value = block[code];
    if (value === null || value === undefined) return [];
    const valueName = (v: string) => (a.valueNames ? (strings[`${a.valueNames}.${v}`] ?? v) : v);
    return [
      {
        code,
        name: strings[`listing.attribute.${code}`] ?? code,
        number: typeof value === 'number' ? value : null,
        flag: typeof value === 'boolean' ? value : null,
        codes: codesOf(value),
        code_names: codesOf(value).map(valueName),
      },
    ];
  });
}

/** Pure: the listing document and what the service read in, out the answer of `GET /v1/listings/{id}`. */
export function toListingPage(doc: PageSource, ctx: PageContext): ListingPageBody {
  const card = toListingCard(doc, { lang: ctx.lang, favorites: ctx.favorites, base: ctx.base });
  const description = pickText(doc.description, ctx.lang, doc.original_lang);
  const byId = new Map(ctx.places.map((p) => [p.id, p]));
  const url = (ref: string) => (ctx.base ? photoUrl(ref, ctx.base) : ref);
  const converted = convertMinor(doc.price_minor, doc.currency, ctx.currency, ctx.fx);
  let availability: ListingPageBody['availability'] = null;
  if (ctx.stay) {
    const answer = priceStay(ctx.stay, {
      blocked: doc.blocked,
      capacity: capacityOf(doc),
      price_minor: doc.price_minor,
      unit: doc.price_unit as PriceUnit,
      duration_min: durationOf(doc),
    });
    const total = convertMinor(answer.total_minor, doc.currency, ctx.currency, ctx.fx);
    availability = {
      date_from: ctx.stay.from,
      date_to: ctx.stay.to,
      guests: ctx.stay.guests,
      ...answer,
      capacity: capacityOf(doc),
      currency: doc.currency,
      converted_total: total === null ? null : { amount_minor: total, currency: ctx.currency, approximate: true },
    };
  }
  return {
    ...card,
    description: description?.text ?? '',
    description_lang: description?.lang ?? card.lang,
    photos: doc.photos.map((p) => ({
      thumb: url(p.thumb),
      medium: url(p.medium),
      large: p.large ? url(p.large) : null,
    })),
    amenities: ctx.amenities,
    attributes: attributesOf(doc, ctx.strings),
    languages: doc.languages,
    place_path: doc.place_path_ids.flatMap((id) => {
      const p = byId.get(id);
      return p
        ? [{ id: p.id, slug: p.slug, name: nameIn(p.name, ctx.lang), level: p.level as (typeof PLACE_LEVELS)[number] }]
        : [];
    }),
    location: {
      mode: doc.location_mode,
      point: doc.location ? { lat: doc.location.lat, lon: doc.location.lon } : null,
      area: doc.location_mode === 'city_only' ? ctx.area : null,
    },
    price: { amount_minor: doc.price_minor, currency: doc.currency, unit: doc.price_unit },
    converted: converted === null ? null : { amount_minor: converted, currency: ctx.currency, approximate: true },
    blocked: blockedWithin(doc.blocked, ctx.window),
    calendar: { from: ctx.window.from, to: ctx.window.to, timezone: ctx.timezone },
    availability,
  };
}
