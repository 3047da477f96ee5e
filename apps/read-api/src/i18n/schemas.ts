import { z } from 'zod';
import { LANGUAGES } from '@guest/http-kit';

/** Shapes of `/v1/i18n` and `/v1/i18n/languages` (spec 4.6). */

export const I18nResponse = z
  .object({
    lang: z.enum(LANGUAGES).meta({ description: 'Language of this dictionary.' }),
    version: z.string().meta({
      description:
        "Version of this language's dictionary (its strings with the English fill): each language has its own, " +
        'it changes whenever a string served in this language changes. ' +
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

export const NotModified = z
  .null()
  .meta({ description: 'Not modified: the `version` sent (or the `If-None-Match` ETag) is current. No body.' });

export const LanguageInfo = z
  .object({
    code: z.enum(LANGUAGES).meta({ description: 'Value for `lang` and `Accept-Language`.' }),
    name: z.string().meta({ description: 'The language named in itself, e.g. `Русский`. Show it as is; no flags.' }),
    name_en: z.string().meta({ description: 'The language named in English.' }),
  })
  .meta({ id: 'LanguageInfo' });

export const LanguagesResponse = z
  .object({
    default: z.enum(LANGUAGES).meta({ description: 'Language served when the request names none that is supported.' }),
    languages: z.array(LanguageInfo),
  })
  .meta({ id: 'LanguagesResponse' });
