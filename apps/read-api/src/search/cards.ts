import { photoUrl, pickText, type ContentLanguage, type ListingDocument, type Texts } from '@guest/catalog';
import type { LatLon } from '../geo/filters.ts';
import type { ListingCardBody } from './schemas.ts';
import { distanceM } from './sort.ts';
import { cardTotal } from './totals.ts';

/** Fields of `_source` a card needs: descriptions and search helpers stay in the engine. */
export const CARD_SOURCE = [
  'id',
  'kind',
  'title',
  'original_lang',
  'place',
  'location',
  'price_minor',
  'currency',
  'price_unit',
  'rating_avg',
  'rating_count',
  'instant_book',
  'cover_photo',
] as const;

export type CardSource = Pick<ListingDocument, (typeof CARD_SOURCE)[number]>;

/** A name in the request language, else English, else any (a place name has no original language). */
export function nameIn(texts: Texts, lang: ContentLanguage): string {
  return pickText(texts, lang, lang)?.text ?? '';
}

/**
 * A listing document as the card of DESIGN.md section 4: texts in the request language with the
 * translation marker, the first photo (`large` may be null; paths on the API's origin made
 * absolute with `base`), `is_favorite` only when `favorites`
 * is given (signed in), `distance_m` only with `near`, `total` only with `nights` (dates searched).
 */
export function toListingCard(
  doc: CardSource,
  opts: {
    lang: ContentLanguage;
    near?: LatLon | undefined;
    favorites?: ReadonlySet<number> | null;
    /** The feed's related (not exact) match of `q`. */
    related?: boolean;
    /** The API's public base URL, before photo paths on its own origin (`photoUrl`). */
    base?: string | undefined;
    /** Nights of the dates searched: the card gets the price of them all (`cardTotal`). */
    nights?: number | undefined;
  },
): ListingCardBody {
  const title = pickText(doc.title, opts.lang, doc.original_lang);
  const photo = doc.cover_photo;
  const card: ListingCardBody = {
    id: doc.id,
    kind: doc.kind,
    title: title?.text ?? '',
    place: { id: doc.place.id, slug: doc.place.slug, name: nameIn(doc.place.name, opts.lang) },
    point: doc.location ? { lat: doc.location.lat, lon: doc.location.lon } : null,
    price_minor: doc.price_minor,
    currency: doc.currency,
    price_unit: doc.price_unit,
    rating_avg: doc.rating_avg,
    rating_count: doc.rating_count,
    instant_book: doc.instant_book,
    photo: photo ? photoOf(photo, opts.base) : null,
    lang: title?.lang ?? 'en',
    translated: title?.translated ?? false,
  };
  if (opts.favorites) card.is_favorite = opts.favorites.has(doc.id);
  if (opts.near && doc.location) card.distance_m = Math.round(distanceM(opts.near, doc.location));
  if (opts.related) card.related = true;
  const total = opts.nights ? cardTotal(doc, opts.nights) : null;
  if (total) card.total = total;
  return card;
}

/** Every size of a photo as a client may load it: paths on the API's own origin made absolute. */
function photoOf(
  photo: NonNullable<CardSource['cover_photo']>,
  base: string | undefined,
): { thumb: string; medium: string; large: string | null } {
  const url = (ref: string) => (base ? photoUrl(ref, base) : ref);
  return { thumb: url(photo.thumb), medium: url(photo.medium), large: photo.large ? url(photo.large) : null };
}
