export const LANGUAGES = ['en', 'ru', 'th', 'zh-Hans'] as const;
export type Lang = (typeof LANGUAGES)[number];

/**
 * The interface language: `?lang=` in the page's URL, else the first of the browser's languages
 * the API speaks (`ru-RU` → `ru`, `zh`, `zh-CN`, `zh-SG` → `zh-Hans`), else English.
 */
export function chooseLanguage(query: URLSearchParams, browser: readonly string[]): Lang {
  const asked = match(query.get('lang') ?? '');
  if (asked) return asked;
  for (const tag of browser) {
    const found = match(tag);
    if (found) return found;
  }
  return 'en';
}

function match(tag: string): Lang | null {
  const t = tag.trim().toLowerCase();
  if (!t) return null;
  if (t === 'zh-hans' || t === 'zh' || t.startsWith('zh-hans') || t === 'zh-cn' || t === 'zh-sg') return 'zh-Hans';
  const base = t.split('-')[0];
  return (LANGUAGES as readonly string[]).includes(base ?? '') && base !== 'zh' ? (base as Lang) : null;
}
