import { z } from 'zod';

/**
 * Words of `q` the answer was relaxed to leave out: present on every page, empty when the answer
 * has them all. A client can show "showing results for …" with the rest of `q`.
 */
export const UnmatchedTerms = z.array(z.string()).meta({
  description:
    'Words of `q` that no result has, so a client can show "showing results for …" with the rest. The places, ' +
    'categories, amenities, property types and intents `q` names (a district, "villa", "pool", "pet friendly", ' +
    '"near the beach", "with kids", "cheap") select; its other words only rank when something else selects, so ' +
    'one word the catalog lacks does not empty the answer ("quiet villa Kata sunset" lists the villas of Kata, ' +
    'quiet ones first, and names "sunset" here). Named here with an empty answer: a word for something specific ' +
    'the catalog does not offer ("golf") and a destination it does not serve ("Bali"). Empty when every word ' +
    'matched; the same on every page.',
  example: ['sunset'],
});
