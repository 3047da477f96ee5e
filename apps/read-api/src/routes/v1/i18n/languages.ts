import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DEFAULT_LANG, LANGUAGES, type Lang } from '@guest/http-kit';
import { LanguagesResponse } from '../../../i18n/schemas.ts';
import type { ReadRouteOptions } from '../../../services.ts';

/** Each interface language named in its own language (and in English for support staff). */
const NAMES: Record<Lang, { name: string; name_en: string }> = {
  en: { name: 'English', name_en: 'English' },
  ru: { name: 'Русский', name_en: 'Russian' },
  th: { name: 'ไทย', name_en: 'Thai' },
  'zh-Hans': { name: '简体中文', name_en: 'Chinese (Simplified)' },
};

/** GET /v1/i18n/languages (spec 4.6). */
export default async function languagesRoutes(app: FastifyInstance, { config }: ReadRouteOptions): Promise<void> {
  const body: z.infer<typeof LanguagesResponse> = {
    default: DEFAULT_LANG,
    languages: LANGUAGES.map((code) => ({ code, ...NAMES[code] })),
  };
  const cacheControl = `public, max-age=${config.REFERENCE_CACHE_MAX_AGE_S}`;
  app.withTypeProvider<ZodTypeProvider>().get(
    '/v1/i18n/languages',
    {
      config: {
        errors: [],
        example: {
          response: {
            default: 'en',
            languages: [
              { code: 'en', name: 'English', name_en: 'English' },
              { code: 'ru', name: 'Русский', name_en: 'Russian' },
            ],
          },
        },
      },
      schema: {
        operationId: 'listLanguages',
        tags: ['localization'],
        summary: 'Interface languages',
        description: 'Every interface language, each named in its own language, with no flags.',
        response: { 200: LanguagesResponse },
      },
    },
    async (_req, reply) => {
      reply.header('cache-control', cacheControl);
      return body;
    },
  );
}
