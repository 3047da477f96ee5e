import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { cursorParam, limitParam } from '@guest/http-kit';
import { authOf, bearerSecurity, requireAuth } from '@guest/auth';
import { FavoritesPage } from '../../../../favorites/schemas.ts';
import type { WriteRouteOptions } from '../../../../services.ts';

export default async function meFavorites(app: FastifyInstance, { services }: WriteRouteOptions) {
  const { config } = services;
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/me/favorites',
    {
      config: {
        errors: ['validation_error', 'unauthorized'],
        example: {
          after: ['addFavorite'],
          query: { limit: 20 },
          response: {
            items: [
              { listing_id: 1, kind: 'stay', title: 'Kata sea-view villa', added_at: '2026-11-23T21:43:22.397Z' },
            ],
            next_cursor: null,
            has_more: false,
          },
        },
      },
      onRequest: requireAuth(),
      schema: {
        operationId: 'listFavorites',
        tags: ['me'],
        summary: 'Saved listings',
        description:
          'Newest first, cursor-paged. Only listings published now, as search and `PUT` see them: a listing that is ' +
          'archived, back to draft or deleted leaves the list (no entry, no status), since there is nothing a guest can ' +
          'open or book; one archived and published again is back in its place, unless it was removed meanwhile.',
        security: bearerSecurity,
        querystring: z.object({
          cursor: cursorParam,
          limit: limitParam(config.FAVORITES_LIMIT_DEFAULT, config.FAVORITES_LIMIT_MAX),
        }),
        response: { 200: FavoritesPage },
      },
    },
    async (req) => services.favorites.list(authOf(req).accountId, req.lang, req.query),
  );
}
