/** Content languages of the catalog; English is the fallback for a missing text. */
export const CONTENT_LANGUAGES = ['en', 'ru', 'th', 'zh-Hans'] as const;
export type ContentLanguage = (typeof CONTENT_LANGUAGES)[number];
export type Texts = Partial<Record<ContentLanguage, string>>;

/**
 * The text in `lang`, else English, else the language the author wrote in, else any language
 * there is; `translated` is true when the text returned is not in the language the author wrote
 * in (spec: translation marker). The original comes before a third language because the author's
 * own words are the truth and any other translation was made from them.
 */
export function pickText(
  texts: Texts,
  lang: ContentLanguage,
  originalLang: string,
): { text: string; lang: ContentLanguage; translated: boolean } | null {
  const original = CONTENT_LANGUAGES.find((l) => l === originalLang);
  const order: ContentLanguage[] = [lang, 'en', ...(original ? [original] : []), ...CONTENT_LANGUAGES];
  for (const l of order) {
    const t = texts[l];
    if (t) return { text: t, lang: l, translated: l !== originalLang };
  }
  return null;
}
