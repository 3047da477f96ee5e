import { api } from './api.ts';
import { chooseLanguage, language, type Lang } from './i18n-state.ts';
import { location } from './router.ts';
import { createStore, useStore } from './store.ts';

export { LANGUAGES, language, type Lang } from './i18n-state.ts';

/**
 * Every visible string comes from the API's dictionary (`/v1/i18n`). The dictionary of each
 * language is kept in `localStorage` with its `version`; the next visit sends that version and
 * the API answers 304 when it is still current, so the page starts without downloading it again.
 */
interface Dictionary {
  lang: Lang;
  version: string;
  strings: Record<string, string>;
}

const dictionary = createStore<Dictionary>({ lang: 'en', version: '', strings: {} });
const cacheKey = (lang: Lang) => `guest.i18n.${lang}`;

function cached(lang: Lang): Dictionary | null {
  try {
    const raw = localStorage.getItem(cacheKey(lang));
    return raw ? (JSON.parse(raw) as Dictionary) : null;
  } catch {
    return null;
  }
}

/** Loads the dictionary of `lang` (conditionally, with the version held) and makes it current. */
export async function loadDictionary(lang: Lang): Promise<void> {
  const held = cached(lang);
  const { data, response } = await api.GET('/v1/i18n', {
    params: { query: { lang, ...(held ? { version: held.version } : {}) } },
  });
  let next: Dictionary | null = null;
  if (response.status === 304 && held) next = held;
  else if (data) {
    next = { lang: data.lang, version: data.version, strings: data.strings as Record<string, string> };
    try {
      localStorage.setItem(cacheKey(lang), JSON.stringify(next));
    } catch {
      // A full storage only costs the next visit a download.
    }
  } else if (held) next = held;
  if (!next) throw new Error(`the dictionary of ${lang} could not be loaded (${response.status})`);
  language.set(lang);
  document.documentElement.lang = lang;
  dictionary.set(next);
}

/** Follows `?lang=` changes of the URL (language switcher, back button). */
export function followUrlLanguage(): void {
  location.subscribe((loc) => {
    const lang = chooseLanguage(loc.query, navigator.languages ?? []);
    if (lang !== dictionary.get().lang) void loadDictionary(lang);
  });
}

/**
 * The string of `key` in the interface language, with `{name}` placeholders filled. A key the
 * dictionary lacks shows as the key itself, so that it is noticed (and `check:i18n` lists it).
 */
export function t(key: string, params: Record<string, string | number> = {}): string {
  const s = dictionary.get().strings[key];
  if (s === undefined) {
    if (import.meta.env.DEV) console.warn(`i18n: no string for ${key}`);
    return key;
  }
  return s.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m));
}

/** Re-renders the component when the dictionary changes; returns `t`. */
export function useT(): typeof t {
  useStore(dictionary);
  return t;
}

export function currentLang(): Lang {
  return dictionary.get().lang;
}

/**
 * The language of the strings on screen, re-rendering the component when it changes: data asked
 * in a language (cards, place names, categories) is asked again with it in the effect's keys, so
 * a switch changes texts and data together.
 */
export function useLang(): Lang {
  return useStore(dictionary).lang;
}
