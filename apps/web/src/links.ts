import { hrefTo } from './router.ts';

/** What a listing page takes from the search it is opened from: the currency and the stay asked for. */
const CARRIED = ['currency', 'date_from', 'date_to', 'guests'] as const;

/**
 * The address of a listing's page: the one place that spells it. Cards, map pins, suggestions and
 * favorites link to it; the listing page's route answers it. Opened from a search (`from`, its
 * query), it carries the search's currency, dates and guests, so the page prices the same stay.
 */
export function listingHref(id: number, from: URLSearchParams = new URLSearchParams()): string {
  const carried: Record<string, string> = {};
  for (const key of CARRIED) {
    const v = from.get(key);
    if (v) carried[key] = v;
  }
  return hrefTo(`/listings/${id}`, carried);
}
