import type { Lang } from '@guest/http-kit';
import { loadDictionaries, type ResolvedDictionary } from './dictionaries.ts';

export interface I18nServiceDeps {
  /** Directory of the dictionaries (`en.json`, `ru.json`, …), resolved. */
  dir: string;
}

export type I18nService = ReturnType<typeof createI18nService>;

/**
 * The interface dictionaries of spec 4.6, read and checked once when the service is made: a
 * broken file refuses the start (DictionaryError) instead of serving half a dictionary.
 */
export function createI18nService(deps: I18nServiceDeps) {
  const set = loadDictionaries(deps.dir);
  return {
    /** The full dictionary of `lang`, English filling its gaps, with its own version. */
    dictionary: (lang: Lang): ResolvedDictionary => set.byLang[lang],
  };
}
