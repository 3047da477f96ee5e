import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '@guest/http-kit';
import { LISTING_KINDS } from '@guest/catalog';
import { SuggestResponse } from '../../../search/schemas.ts';
import type { ReadRouteOptions } from '../../../services.ts';

/** GET /v1/search/suggest (spec 4.7): places by translated names and listings, as you type. */
export default async function suggestRoute(app: FastifyInstance, { services }: ReadRouteOptions): Promise<void> {
  const Query = z.object({
    q: z
      .string()
      .transform((v) => v.trim())
      .pipe(z.string().min(1).max(100))
      .meta({ description: 'What the guest has typed: names in any of the four languages, prefixes, small typos.' }),
    kind: z.enum(LISTING_KINDS).optional().meta({
      description: 'Only listings of this kind, and only places that hold listings of this kind.',
    }),
  });

  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/search/suggest',
    {
      schema: {
        tags: ['search'],
        summary: 'Suggestions of places and listings as the guest types',
        querystring: Query,
        response: { 200: SuggestResponse, ...errorResponses(400, 429, 500) },
      },
    },
    async (req) => services.search.suggest(req.query, req.lang),
  );
}
