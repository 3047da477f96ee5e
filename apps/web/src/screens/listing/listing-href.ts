import { hrefTo } from '../../router.ts';

/** What a listing page takes from the search it is opened from: the currency and the stay asked for. */
const CARRIED = ['currency', 'date_from', 'date_to', 'guests'] as const;

/** The listing page's address, with the currency, dates and guests of the search it is opened from. */
export function listingHref(id: number, from: URLSearchParams = new URLSearchParams()): string {
  const carried: Record<string, string> = {};
  for (const key of CARRIED) {
    const v = from.get(key);
    if (v) carried[key] = v;
  }
  return hrefTo(`/listings/${id}`, carried);
}
