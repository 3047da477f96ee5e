import { describe, expect, it } from 'vitest';
import { chooseLanguage } from './i18n-choose.ts';

describe('the interface language: ?lang=, else the browser languages, else English', () => {
  const q = (s: string) => new URLSearchParams(s);
  it.each([
    ['?lang=ru', ['th-TH'], 'ru'],
    ['?lang=zh-Hans', [], 'zh-Hans'],
    ['?lang=xx', ['th-TH', 'en'], 'th'],
    ['', ['de-DE', 'ru-RU'], 'ru'],
    ['', ['zh-CN'], 'zh-Hans'],
    ['', ['zh'], 'zh-Hans'],
    ['', ['zh-TW', 'de'], 'en'],
    ['', ['fr'], 'en'],
    ['', [], 'en'],
  ])('%s with %j is %s', (search, browser, want) => {
    expect(chooseLanguage(q(search), browser)).toBe(want);
  });
});
