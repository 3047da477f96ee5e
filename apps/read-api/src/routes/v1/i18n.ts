import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { etagMatches } from '@guest/http-kit';
import { I18nQuery } from '../../i18n/params.ts';
import { I18nResponse, NotModified } from '../../i18n/schemas.ts';
import type { ReadRouteOptions } from '../../services.ts';

/** GET /v1/i18n (spec 4.6): the full dictionary of one language, with conditional fetch. */
export default async function i18nRoutes(app: FastifyInstance, { services, config }: ReadRouteOptions): Promise<void> {
  const { i18n } = services;
  const cacheControl = `public, max-age=${config.I18N_CACHE_MAX_AGE_S}`;

  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/i18n',
    {
      config: {
        errors: ['validation_error'],
        conditional: true,
        example: {
          query: { lang: 'en' },
          response: {
            lang: 'en',
            version: '0d843ba44f9eacc4',
            strings: { 'nav.home': 'Home', 'nav.search': 'Search', 'nav.map': 'Map' },
            missing: [],
          },
        },
      },
      schema: {
        operationId: 'getTranslations',
        tags: ['localization'],
        summary: 'Interface strings for one language',
        description:
          'The whole dictionary of interface strings in the request language (`lang`, else `Accept-Language`, ' +
          'else English); strings a language lacks come in English and are listed in `missing`. ' +
          'Conditional fetch: with `version` equal to the current version, or `If-None-Match` equal to the `ETag`, ' +
          'the answer is 304 with no body. The version is per language: one fetched for another language gets 200.',
        querystring: I18nQuery,
        response: { 200: I18nResponse, 304: NotModified },
      },
    },
    async (req, reply) => {
      const dict = i18n.dictionary(req.lang);
      const etag = `"${dict.version}-${req.lang}"`;
      reply.headers({ etag, 'cache-control': cacheControl, vary: 'Accept-Language', 'content-language': req.lang });
      if (req.query.version === dict.version || etagMatches(req.headers['if-none-match'], etag)) {
        return reply.code(304).send(null);
      }
      return { lang: dict.lang, version: dict.version, strings: dict.strings, missing: dict.missing };
    },
  );
}
