import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { optionalAuth, optionalSecurity } from '@guest/auth';
import { publicBaseUrl } from '@guest/http-kit';
import { feedParams } from '../../../search/params.ts';
import { FeedResponse } from '../../../search/schemas.ts';
import type { ReadRouteOptions } from '../../../services.ts';

/** GET /v1/search/listings (spec 4.7): the feed, cursor-paged with search_after. */
export default async function listingsRoute(
  app: FastifyInstance,
  { services, config }: ReadRouteOptions,
): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/search/listings',
    {
      config: {
        errors: ['validation_error', 'unauthorized'],
        sharedAnswer: true,
        example: {
          query: { kind: 'stay', bbox: '98.2,7.7,98.5,8.1', guests: 2, sort: 'price_asc', limit: 2 },
          response: {
            items: [
              {
                id: 2,
                kind: 'stay',
                title: 'Karon family apartment',
                place: { id: 5, slug: 'karon', name: 'Karon' },
                point: { lat: 7.8475, lon: 98.2965 },
                price_minor: 150000,
                currency: 'THB',
                price_unit: 'night',
                rating_avg: 4.5,
                rating_count: 40,
                instant_book: false,
                photo: {
                  thumb: 'https://img.example/S2/480.jpg',
                  medium: 'https://img.example/S2/1600.jpg',
                  large: 'https://img.example/S2/2560.jpg',
                },
                lang: 'en',
                translated: false,
                is_favorite: false,
              },
              {
                id: 3,
                kind: 'stay',
                title: 'Patong party hostel room',
                place: { id: 6, slug: 'patong', name: 'Patong' },
                point: { lat: 7.894, lon: 98.298 },
                price_minor: 5000,
                currency: 'USD',
                price_unit: 'night',
                rating_avg: 3.9,
                rating_count: 12,
                instant_book: true,
                photo: {
                  thumb: 'https://img.example/S3/480.jpg',
                  medium: 'https://img.example/S3/1600.jpg',
                  large: 'https://img.example/S3/2560.jpg',
                },
                lang: 'en',
                translated: false,
                is_favorite: false,
              },
            ],
            next_cursor:
              'eyJzIjoic2VhcmNoLmxpc3RpbmdzIiwiZCI6eyJhIjpbMTc3OTM2LDNdLCJoIjoiQ0tFa3dHTl8yMm50WTVpNSJ9fQ.DU7sSNp66Lovi1YbRlrpd4RCoUp1_7cjdtBjmPIWKyI',
            has_more: true,
            unmatched_terms: [],
          },
        },
      },
      onRequest: optionalAuth(),
      schema: {
        operationId: 'searchListings',
        tags: ['search'],
        summary: 'Search feed of listings',
        description:
          'Optional sign-in: signed-in guests get `is_favorite` on each card. Texts are in the request language ' +
          '(`lang` or `Accept-Language`), else English, with `lang`/`translated` on each card. In relevance order, ' +
          'when fewer listings than the server setting SEARCH_RELATED_BELOW (default 10) match `q` exactly, listings ' +
          'related to it follow every exact match, marked `related` (the region of the place named; other stays for ' +
          'a property type), each part in the order the words of `q` ask for when they ask for one ("cheap"): ' +
          '`/v1/search/count` and the map count the exact matches only.',
        security: optionalSecurity,
        querystring: feedParams(config),
        response: { 200: FeedResponse },
      },
    },
    async (req) =>
      services.search.feed(req.query, { lang: req.lang, accountId: req.auth?.accountId, base: publicBaseUrl(req) }),
  );
}
