import { describe, expect, it } from 'vitest';
import { matchedPart } from './feed-notes.ts';

describe('matchedPart: what "showing results for" names', () => {
  it.each([
    ['Kata purple villa', ['purple'], 'Kata villa'],
    ['Kata Purple, villa', ['purple'], 'Kata villa'],
    ['villa', [], 'villa'],
    ['Пхукет фиолетовый', ['фиолетовый'], 'Пхукет'],
    ['ภูเก็ตสีม่วง', ['สีม่วง'], 'ภูเก็ต'],
    ['普吉紫色别墅', ['紫色'], '普吉 别墅'],
    ['purple', ['purple'], ''],
  ])('%s without %j → %s', (q, unmatched, shown) => {
    expect(matchedPart(q, unmatched)).toBe(shown);
  });
});
