import { createStore } from './store.ts';
import { chooseLanguage, type Lang } from './i18n-choose.ts';

export { chooseLanguage, LANGUAGES, type Lang } from './i18n-choose.ts';

export const language = createStore<Lang>(
  chooseLanguage(new URLSearchParams(window.location.search), navigator.languages ?? []),
);
