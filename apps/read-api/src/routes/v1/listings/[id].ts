import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { optionalAuth } from '@guest/auth';
import { errors, etagMatches, publicBaseUrl } from '@guest/http-kit';
import { ListingIdParams, listingPageQuery } from '../../../listings/params.ts';
import { LISTING_PAGE_EXAMPLE } from '../../../listings/examples.ts';
import { ListingPageResponse, NotModified } from '../../../listings/schemas.ts';
import type { ReadRouteOptions } from '../../../services.ts';

/** GET /v1/listings/{id} (DESIGN.md section 7): one published listing, its calendar and the price of a stay. */
export default async function listingPageRoute(
  app: FastifyInstance,
  { services, config }: ReadRouteOptions,
): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/listings/:id',
    {
      config: {
        errors: ['validation_error', 'not_found', 'unauthorized'],
        conditional: true,
        example: { params: { id: 3 }, query: { lang: 'en', currency: 'THB' }, response: LISTING_PAGE_EXAMPLE },
      },
      onRequest: optionalAuth(),
      schema: {
        operationId: 'getListing',
        tags: ['search'],
        summary: 'One listing: the card, description, photos, amenities, calendar and the price of a stay',
        description:
          'A published listing from the index; optional sign-in adds `is_favorite`. Texts and names are in the request ' +
          'language (`lang` or `Accept-Language`), else English. `price` is in the listing’s own currency; `converted` ' +
          'in `currency` (default THB) through the latest FX rates, approximate. `blocked` lists the days not bookable ' +
          `from today, in the zone of the listing's place, for ${config.LISTING_CALENDAR_DAYS} days.\n\n` +
          'With `date_from` (and `date_to`, exclusive; one day without it) and `guests` (default 1), `availability` ' +
          'says whether the listing is free then and what the stay costs, in the listing’s currency and converted. ' +
          '`free` is false with `reason` `blocked` when a blocked day falls in the range and `over_capacity` when ' +
          'there are more guests than the listing takes (stays: `max_guests`; experiences: the group size; other ' +
          'kinds take any number). `total_minor` is the price times `units`: per `night` and per `day`, one per ' +
          'day of the range; per `month`, the nights over 30 (a month is 30 nights, as on the feed’s cards); per ' +
          '`person`, one per guest (the whole ' +
          'activity); per `hour`, one per started hour of the listing’s `duration_min` attribute (one without it); ' +
          `per \`trip\` and per \`item\`, one. Dates must lie between today and ${config.LISTING_CALENDAR_DAYS} days ahead ` +
          `(400 \`validation_error\`, \`reason\` \`before_today\` or \`beyond_calendar\`), \`date_to\` after \`date_from\` ` +
          `and at most ${config.LISTING_RANGE_MAX_DAYS} days from it, and \`guests\` needs \`date_from\`.\n\n` +
          'Conditional: the `ETag` changes with anything in the answer; `If-None-Match` with the current one gives 304 ' +
          'without a body. An id no published listing has: 404 `not_found`.',
        security: [{}, { bearer: [] }],
        params: ListingIdParams,
        querystring: listingPageQuery(config),
        response: { 200: ListingPageResponse, 304: NotModified },
      },
    },
    async (req, reply) => {
      const page = await services.listings.page(req.params.id, req.query, {
        lang: req.lang,
        accountId: req.auth?.accountId,
        base: publicBaseUrl(req),
      });
      if (!page) throw errors.notFound('No such listing.');
      const etag = `"${createHash('sha256').update(JSON.stringify(page)).digest('base64url').slice(0, 27)}"`;
      const vary = reply.getHeader('vary');
      reply
        .header('etag', etag)
        .header('vary', [vary, 'Accept-Language, Authorization, Cookie'].filter(Boolean).join(', '));
      if (etagMatches(req.headers['if-none-match'], etag)) return reply.code(304).send(null);
      return page;
    },
  );
}
