import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { FavoriteResponse, ListingIdParams } from '../../../../favorites/schemas.ts';
import type { WriteRouteOptions } from '../../../../services.ts';

export default async function meFavorite(app: FastifyInstance, { services }: WriteRouteOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.put(
    '/v1/me/favorites/:listing_id',
    {
      config: {
        errors: ['validation_error', 'unauthorized', 'not_found'],
        example: {
          params: { listing_id: 1 },
          response: { listing_id: 1, is_favorite: true, added_at: '2026-11-23T21:43:22.397Z' },
        },
      },
      onRequest: requireAuth(),
      schema: {
        operationId: 'addFavorite',
        tags: ['me'],
        summary: 'Save a listing',
        description:
          'Idempotent: saving it again changes nothing. A listing the catalog does not have, or does not publish (draft, ' +
          'archived), is 404. Search cards show it as ' +
          `\`is_favorite\`.`,
        security: bearerSecurity,
        params: ListingIdParams,
        response: { 200: FavoriteResponse },
      },
    },
    async (req) => services.favorites.add(authOf(req).accountId, req.params.listing_id),
  );

  r.delete(
    '/v1/me/favorites/:listing_id',
    {
      config: {
        errors: ['validation_error', 'unauthorized'],
        example: { after: ['listFavorites'], params: { listing_id: 1 } },
      },
      onRequest: requireAuth(),
      schema: {
        operationId: 'removeFavorite',
        tags: ['me'],
        summary: 'Forget a saved listing',
        description: `Idempotent: 204 whether or not it was saved; also forgets one hidden from the list while its listing is not published.`,
        security: bearerSecurity,
        params: ListingIdParams,
        response: { 204: z.null().meta({ description: 'Removed.' }) },
      },
    },
    async (req, reply) => {
      await services.favorites.remove(authOf(req).accountId, req.params.listing_id);
      return reply.code(204).send(null);
    },
  );
}
