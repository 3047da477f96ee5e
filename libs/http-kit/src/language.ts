import { CONTENT_LANGUAGES, type ContentLanguage } from '@guest/catalog';

/** Languages of the interface and of answers: the catalog's content languages (one list). */
export const LANGUAGES = CONTENT_LANGUAGES;
export type Lang = ContentLanguage;
export const DEFAULT_LANG: Lang = 'en';

/** Maps one BCP 47 tag to a supported language, or null. `zh`, `zh-CN`, `zh-Hans-CN` → `zh-Hans`. */
export function matchLanguage(tag: string): Lang | null {
  const t = tag.trim().toLowerCase();
  if (!t) return null;
  const [primary, ...rest] = t.split('-');
  switch (primary) {
    case 'en':
      return 'en';
    case 'ru':
      return 'ru';
    case 'th':
      return 'th';
    case 'zh': {
      // Traditional script (zh-Hant, zh-TW, zh-HK, zh-MO) is not Simplified: do not serve it as such.
      if (rest.includes('hant') || (!rest.includes('hans') && rest.some((r) => ['tw', 'hk', 'mo'].includes(r)))) {
        return null;
      }
      return 'zh-Hans';
    }
    default:
      return null;
  }
}

/** `Accept-Language` with q-values: the best supported language, or null. */
export function parseAcceptLanguage(header: string | undefined): Lang | null {
  if (!header) return null;
  const ranges = header
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.split(';');
      const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const q = qParam ? Number(qParam.slice(2)) : 1;
      return { tag: tag.trim(), q: Number.isFinite(q) ? q : 0, i };
    })
    .filter((r) => r.tag && r.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const r of ranges) {
    if (r.tag === '*') return DEFAULT_LANG;
    const m = matchLanguage(r.tag);
    if (m) return m;
  }
  return null;
}

/** `lang` query parameter, else `Accept-Language`, else English. */
export function negotiateLanguage(queryLang: unknown, acceptLanguage: string | undefined): Lang {
  if (typeof queryLang === 'string') {
    const m = matchLanguage(queryLang);
    if (m) return m;
  }
  return parseAcceptLanguage(acceptLanguage) ?? DEFAULT_LANG;
}
