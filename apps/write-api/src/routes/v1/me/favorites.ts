import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { cursorParam, describeCodes, errorResponses, limitParam } from '@guest/http-kit';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import {
  addFavorite,
  FavoriteResponse,
  FavoritesPage,
  ListingIdParams,
  listFavorites,
  removeFavorite,
} from '../../../profile/favorites.ts';

export default async function meFavorites(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { database, config } = app.runtime;

  r.get(
    '/v1/me/favorites',
    {
      onRequest: requireAuth(),
      schema: {
        tags: ['me'],
        summary: 'Saved listings',
        description: `Newest first, cursor-paged. Errors: ${describeCodes('validation_error', 'unauthorized', 'rate_limited')}.`,
        security: bearerSecurity,
        querystring: z.object({
          cursor: cursorParam,
          limit: limitParam(config.FAVORITES_LIMIT_DEFAULT, config.FAVORITES_LIMIT_MAX),
        }),
        response: { 200: FavoritesPage, ...errorResponses(400, 401, 429, 500) },
      },
    },
    async (req) => listFavorites(database.db, app.cursors, authOf(req).accountId, req.lang, req.query),
  );

  r.put(
    '/v1/me/favorites/:listing_id',
    {
      onRequest: requireAuth(),
      schema: {
        tags: ['me'],
        summary: 'Save a listing',
        description:
          'Idempotent: saving it again changes nothing. A listing the catalog does not have is 404. Search cards show it as ' +
          `\`is_favorite\`. Errors: ${describeCodes('validation_error', 'unauthorized', 'not_found', 'rate_limited')}.`,
        security: bearerSecurity,
        params: ListingIdParams,
        response: { 200: FavoriteResponse, ...errorResponses(400, 401, 404, 429, 500) },
      },
    },
    async (req) => addFavorite(database.db, authOf(req).accountId, req.params.listing_id),
  );

  r.delete(
    '/v1/me/favorites/:listing_id',
    {
      onRequest: requireAuth(),
      schema: {
        tags: ['me'],
        summary: 'Forget a saved listing',
        description: `Idempotent: 204 whether or not it was saved. Errors: ${describeCodes('validation_error', 'unauthorized', 'rate_limited')}.`,
        security: bearerSecurity,
        params: ListingIdParams,
        response: { 204: z.null().meta({ description: 'Removed.' }), ...errorResponses(400, 401, 429, 500) },
      },
    },
    async (req, reply) => {
      await removeFavorite(database.db, authOf(req).accountId, req.params.listing_id);
      return reply.code(204).send(null);
    },
  );
}
