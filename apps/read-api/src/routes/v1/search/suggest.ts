import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SuggestParams } from '../../../search/params.ts';
import { SuggestResponse } from '../../../search/schemas.ts';
import type { ReadRouteOptions } from '../../../services.ts';

/** GET /v1/search/suggest (spec 4.7): places by translated names and listings, as you type. */
export default async function suggestRoute(app: FastifyInstance, { services }: ReadRouteOptions): Promise<void> {
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/search/suggest',
    {
      config: {
        errors: ['validation_error'],
        sharedAnswer: true,
        example: {
          query: { q: 'kat', kind: 'all' },
          response: {
            places: [{ id: 4, slug: 'kata', name: 'Kata', name_full: 'Kata, Phuket, Thailand', level: 'district' }],
            listings: [
              { id: 13, kind: 'food', title: 'Kata vegan cafe', place_name: 'Kata' },
              { id: 10, kind: 'transport', title: 'Kata scooter rental', place_name: 'Kata' },
            ],
            categories: [],
          },
        },
      },
      schema: {
        operationId: 'suggest',
        tags: ['search'],
        summary: 'Suggestions of places and listings as the guest types',
        description:
          'For a search box: places matched by their translated names, listings matched by their titles (the same ' +
          'title in the same place once) and the categories its words name, texts in the request language. ' +
          'Public; a short list per call, meant to be asked on each keystroke.',
        querystring: SuggestParams,
        response: { 200: SuggestResponse },
      },
    },
    async (req) => services.search.suggest(req.query, req.lang),
  );
}
