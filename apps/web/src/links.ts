import { hrefTo } from './router.ts';

/**
 * The address of a listing's page: the one place that spells it. Cards, map pins, suggestions and
 * favorites link to it; the listing page's route answers it.
 */
export function listingHref(id: number): string {
  return hrefTo(`/listings/${id}`);
}
