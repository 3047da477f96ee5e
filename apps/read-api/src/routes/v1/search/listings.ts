import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { optionalAuth } from '@guest/auth';
import { errorResponses } from '@guest/http-kit';
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
      onRequest: optionalAuth(),
      schema: {
        tags: ['search'],
        summary: 'Search feed of listings',
        description:
          'Optional sign-in: signed-in guests get `is_favorite` on each card. Texts are in the request language ' +
          '(`lang` or `Accept-Language`), else English, with `lang`/`translated` on each card.',
        security: [{}, { bearer: [] }],
        querystring: feedParams(config),
        response: { 200: FeedResponse, ...errorResponses(400, 401, 429, 500) },
      },
    },
    async (req) => services.search.feed(req.query, { lang: req.lang, accountId: req.auth?.accountId }),
  );
}
