import { LISTING_KINDS, type ListingKind } from './vocabulary.ts';

/**
 * Photo sizes of the spec (section 1, "Photo sizes"): `thumb` 480, `medium` 1600, `large` 2560
 * pixels wide, 3:2. `large` does not always exist.
 */
export const PHOTO_SIZES = {
  thumb: { width: 480, height: 320 },
  medium: { width: 1600, height: 1067 },
  large: { width: 2560, height: 1707 },
} as const;
export type PhotoSize = keyof typeof PHOTO_SIZES;

/**
 * A photo's address in the catalog is an absolute URL (an image host) or a path on the API's own
 * origin (`/demo-photos/…`, images the API makes itself). Clients always get absolute URLs: a path
 * is put after the API's public base URL (`PUBLIC_BASE_URL`, DESIGN section 6) when answered, so
 * the catalog does not change when the base does.
 */
export function photoUrl(ref: string, base: string): string {
  return ref.startsWith('/') && !ref.startsWith('//') ? `${base.replace(/\/+$/, '')}${ref}` : ref;
}

/** Where the API serves the demo catalog's photos; the version changes when the pictures do. */
export const DEMO_PHOTO_PATH = '/demo-photos/v1/';

/** One demo photo: the listing (its kind gives the colour, its number the label), which photo, which size. */
export interface DemoPhoto {
  kind: ListingKind;
  /** The demo listing's number (`DEMO-L-000123` → 123). */
  listing: number;
  /** 0-based place among the listing's photos. */
  index: number;
  size: PhotoSize;
}

/** Most photos a demo listing has (the generator's upper bound). */
export const DEMO_PHOTOS_PER_LISTING = 5;

const NAME = /^(stay|experience|service|transport|food)-(\d{6})-(\d)-(480|1600|2560)\.webp$/;
const SIZE_BY_WIDTH = new Map(Object.entries(PHOTO_SIZES).map(([s, d]) => [String(d.width), s as PhotoSize]));

/** `/demo-photos/v1/stay-000123-2-480.webp`: everything the picture is made from is in its name. */
export function demoPhotoPath(p: DemoPhoto): string {
  return `${DEMO_PHOTO_PATH}${p.kind}-${String(p.listing).padStart(6, '0')}-${p.index}-${PHOTO_SIZES[p.size].width}.webp`;
}

/** The photo a file name stands for; null for any other name (the route's 404). */
export function parseDemoPhotoName(file: string): DemoPhoto | null {
  const m = NAME.exec(file);
  if (!m) return null;
  const kind = m[1] as ListingKind;
  const index = Number(m[3]);
  if (!LISTING_KINDS.includes(kind) || index >= DEMO_PHOTOS_PER_LISTING) return null;
  return { kind, listing: Number(m[2]), index, size: SIZE_BY_WIDTH.get(m[4]!)! };
}
