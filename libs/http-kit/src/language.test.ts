import { describe, expect, it } from 'vitest';
import { matchLanguage, parseAcceptLanguage } from './language.ts';

describe('language tags', () => {
  it('maps Chinese variants of the simplified script to zh-Hans and refuses traditional', () => {
    for (const t of ['zh', 'zh-CN', 'zh-Hans', 'zh-Hans-CN', 'zh-SG', 'ZH-hans'])
      expect(matchLanguage(t)).toBe('zh-Hans');
    for (const t of ['zh-TW', 'zh-Hant', 'zh-Hant-HK', 'zh-HK']) expect(matchLanguage(t)).toBeNull();
  });
  it('orders by q-value and ignores q=0', () => {
    expect(parseAcceptLanguage('ru;q=0, th;q=0.2, en;q=0.1')).toBe('th');
    expect(parseAcceptLanguage('*;q=0.1, de')).toBe('en');
    expect(parseAcceptLanguage('de, fr')).toBeNull();
  });
});
