import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errors, langParam } from '@guest/http-kit';
import { PlaceSlugParams, withTotalsParam } from '../../../places/params.ts';
import { PlaceCardResponse } from '../../../places/schemas.ts';
import type { ReadRouteOptions } from '../../../services.ts';

export default async function placeCardRoute(app: FastifyInstance, { services }: ReadRouteOptions) {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/places/:slug',
    {
      config: {
        errors: ['validation_error', 'not_found'],
        example: {
          params: { slug: 'kata' },
          query: { lang: 'en' },
          response: {
            id: 4,
            parent_id: 2,
            level: 'district',
            slug: 'kata',
            name: 'Kata',
            listings_count: 5,
            listings_total: null,
            name_full: 'Kata, Phuket, Thailand',
            timezone: 'Asia/Bangkok',
            currency: 'THB',
            center: { lat: 7.8206, lon: 98.2986 },
            path: [
              {
                id: 1,
                parent_id: null,
                level: 'country',
                slug: 'thailand',
                name: 'Thailand',
                listings_count: 0,
                listings_total: null,
                name_full: 'Thailand',
                timezone: 'Asia/Bangkok',
                currency: 'THB',
                center: { lat: 13.75, lon: 100.5 },
              },
              {
                id: 2,
                parent_id: 1,
                level: 'region',
                slug: 'phuket',
                name: 'Phuket',
                listings_count: 0,
                listings_total: null,
                name_full: 'Phuket, Thailand',
                timezone: 'Asia/Bangkok',
                currency: 'THB',
                center: { lat: 7.88, lon: 98.39 },
              },
            ],
            children: [],
            counts: { stay: 1, experience: 1, service: 1, transport: 1, food: 1, events: 4 },
          },
        },
      },
      schema: {
        operationId: 'getPlaceBySlug',
        tags: ['reference'],
        summary: 'One place: its path from the top, its children and counts per kind',
        description:
          'The place named by `slug`, with its ancestors from the top level down and its children; ' +
          '`with_totals` adds the number of listings per kind. Unknown slug: 404 `not_found`.',
        params: PlaceSlugParams,
        querystring: z.object({ with_totals: withTotalsParam, lang: langParam }),
        response: { 200: PlaceCardResponse },
      },
    },
    async (req) => {
      const card = await services.places.card(req.params.slug, req.query.with_totals, req.lang);
      if (!card) throw errors.notFound('No such place.');
      return card;
    },
  );
}
