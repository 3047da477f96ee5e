import { z } from 'zod';
import { LANGUAGES } from '@guest/http-kit';

/** Query of `/v1/i18n` (spec 4.6). */

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
