import { z } from 'zod';
import type { Config } from '@guest/config';
import { epochDay } from '@guest/catalog';
import { langParam } from '@guest/http-kit';
import { currency, int, isoDate } from '../query-grammar.ts';

/** `/v1/listings/{id}`: a listing id as the catalog numbers them. */
export const ListingIdParams = z.object({
  id: int(1, 2_147_483_647).meta({ description: 'The listing’s id (as on its card).' }),
});

/** Query of `/v1/listings/{id}`: the language, the currency to convert to and the stay to price. */
export function listingPageQuery(config: Pick<Config, 'LISTING_RANGE_MAX_DAYS' | 'LISTING_CALENDAR_DAYS'>) {
  return z
    .object({
      lang: langParam,
      currency: currency.optional().meta({
        description:
          'Currency `converted` and `availability.converted_total` are given in (default: the base currency, THB).',
      }),
      date_from: isoDate.optional().meta({
        description: `First day (check-in), from today to ${config.LISTING_CALENDAR_DAYS} days ahead in the place’s zone.`,
      }),
      date_to: isoDate.optional().meta({
        description:
          `Day after the last (check-out, exclusive), after \`date_from\` and at most ${config.LISTING_RANGE_MAX_DAYS} ` +
          'days from it; without it, the one day `date_from`.',
      }),
      guests: int(1, 500).optional().meta({ description: 'Guests of the stay (default 1); needs `date_from`.' }),
    })
    .superRefine((q, ctx) => {
      const issue = (field: string, message: string) => ctx.addIssue({ code: 'custom', path: [field], message });
      if (q.date_to && !q.date_from) issue('date_to', 'date_to needs date_from');
      if (q.guests !== undefined && !q.date_from) issue('guests', 'guests needs date_from');
      if (q.date_from && q.date_to) {
        const days = epochDay(q.date_to) - epochDay(q.date_from);
        if (days <= 0) issue('date_to', 'date_to must be after date_from');
        else if (days > config.LISTING_RANGE_MAX_DAYS) {
          issue('date_to', `at most ${config.LISTING_RANGE_MAX_DAYS} days after date_from`);
        }
      }
    });
}
export type ListingPageQuery = z.output<ReturnType<typeof listingPageQuery>>;
