import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorResponses, errors } from '@guest/http-kit';
import { PlaceCardResponse } from '../../../reference/schemas.ts';
import type { ReadRouteOptions } from '../../../services.ts';
import { withTotalsParam } from '../places.ts';

export default async function placeCardRoute(app: FastifyInstance, { services }: ReadRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/places/:slug',
    {
      schema: {
        tags: ['reference'],
        summary: 'One place: its path from the top, its children and counts per kind',
        params: z.object({ slug: z.string().min(1).max(200) }),
        querystring: z.object({ with_totals: withTotalsParam, lang: z.string().max(35).optional() }),
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
