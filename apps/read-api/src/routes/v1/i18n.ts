import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { describeCodes, errorResponses, LANGUAGES } from '@guest/http-kit';
import type { ReadRouteOptions } from '../../services.ts';

export const I18nQuery = z.object({
  lang: z
    .string()
    .regex(/^([A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*)?$/, 'must be a language tag such as en, ru, th or zh-Hans')
    .optional()
    .meta({
      description:
        `Interface language (${LANGUAGES.join(', ')}). Without it (or empty), or when it is not one of these, ` +
        'the language comes from `Accept-Language`, else English.',
    }),
  version: z
    .string()
    .regex(/^[A-Za-z0-9._-]{0,64}$/, 'must be a version string returned by this endpoint')
    .optional()
    .meta({
      description: 'The `version` the client already holds. When it is current, the answer is 304 with no body.',
    }),
});

export const I18nResponse = z
  .object({
    lang: z.enum(LANGUAGES).meta({ description: 'Language of this dictionary.' }),
    version: z.string().meta({
      description:
        'Version of the dictionaries: one value for all languages, changes whenever any string changes. ' +
        'Send it back as `version` (or the `ETag` as `If-None-Match`) to get 304 while nothing changed.',
    }),
    strings: z.record(z.string(), z.string()).meta({
      description:
        'Every interface string: dotted key (`search.filters.price`) to text. Keys the language lacks ' +
        'are filled from English. `{name}` marks a placeholder the client fills in.',
    }),
    missing: z
      .array(z.string())
      .meta({ description: 'Keys of `strings` served in English because this language lacks them.' }),
  })
  .meta({ id: 'I18nResponse' });

const NotModified = z
  .null()
  .meta({ description: 'Not modified: the `version` sent (or the `If-None-Match` ETag) is current. No body.' });

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  return header.split(',').some((t) => t.trim() === '*' || bare(t) === etag);
}

/** GET /v1/i18n (spec 4.6): the full dictionary of one language, with conditional fetch. */
export default async function i18nRoutes(app: FastifyInstance, { services, config }: ReadRouteOptions): Promise<void> {
  const { i18n } = services;
  const cacheControl = `public, max-age=${config.I18N_CACHE_MAX_AGE_S}`;

  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/i18n',
    {
      schema: {
        tags: ['localization'],
        summary: 'Interface strings for one language',
        description:
          'The whole dictionary of interface strings in the request language (`lang`, else `Accept-Language`, ' +
          'else English); strings a language lacks come in English and are listed in `missing`. ' +
          'Conditional fetch: with `version` equal to the current version, or `If-None-Match` equal to the `ETag`, ' +
          'the answer is 304 with no body. Send `version` together with the same language it was fetched for. ' +
          `Errors: ${describeCodes('validation_error', 'rate_limited', 'internal_error')}.`,
        querystring: I18nQuery,
        response: { 200: I18nResponse, 304: NotModified, ...errorResponses(400, 429, 500) },
      },
    },
    async (req, reply) => {
      const etag = `"${i18n.version}-${req.lang}"`;
      reply.headers({ etag, 'cache-control': cacheControl, vary: 'Accept-Language', 'content-language': req.lang });
      if (req.query.version === i18n.version || etagMatches(req.headers['if-none-match'], etag)) {
        return reply.code(304).send(null);
      }
      const dict = i18n.dictionary(req.lang);
      return { lang: dict.lang, version: i18n.version, strings: dict.strings, missing: dict.missing };
    },
  );
}
