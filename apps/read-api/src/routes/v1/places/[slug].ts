import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses, errors, langParam } from '@guest/http-kit';
import { PlaceSlugParams, withTotalsParam } from '../../../places/params.ts';
import { PlaceCardResponse } from '../../../places/schemas.ts';
import type { ReadRouteOptions } from '../../../services.ts';

export default async function placeCardRoute(app: FastifyInstance, { services }: ReadRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/places/:slug',
    {
      schema: {
        tags: ['reference'],
        summary: 'One place: its path from the top, its children and counts per kind',
        description:
          'The place named by `slug`, with its ancestors from the top level down and its children; ' +
          '`with_totals` adds the number of listings per kind. Unknown slug: 404 `not_found`.',
        params: PlaceSlugParams,
        querystring: z.object({ with_totals: withTotalsParam, lang: langParam }),
        response: { 200: PlaceCardResponse, ...errorResponses(400, 404, 429, 500) },
      },
    },
    async (req) => {
      const card = await services.places.card(req.params.slug, req.query.with_totals, req.lang);
      if (!card) throw errors.notFound('No such place.');
      return card;
    },
  );
}
