import { describe, expect, it } from 'vitest';
import { pickText } from './languages.ts';

describe('pickText: request language, then English, then the original', () => {
  it('shows the original before a third language when neither the request language nor English exists', () => {
    // ru before th in CONTENT_LANGUAGES: the old order showed the Russian translation.
    expect(pickText({ ru: 'Вилла', th: 'วิลล่า' }, 'zh-Hans', 'th')).toEqual({
      text: 'วิลล่า',
      lang: 'th',
      translated: false,
    });
  });

  it('prefers English over the original', () => {
    expect(pickText({ en: 'Villa', th: 'วิลล่า' }, 'ru', 'th')).toEqual({ text: 'Villa', lang: 'en', translated: true });
  });

  it('prefers the request language over everything', () => {
    expect(pickText({ en: 'Villa', ru: 'Вилла', th: 'วิลล่า' }, 'ru', 'th')).toEqual({
      text: 'Вилла',
      lang: 'ru',
      translated: true,
    });
  });

  it('falls back to any language when the original has no text', () => {
    expect(pickText({ ru: 'Вилла' }, 'zh-Hans', 'th')).toEqual({ text: 'Вилла', lang: 'ru', translated: true });
  });
});
