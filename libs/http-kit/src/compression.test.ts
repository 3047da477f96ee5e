import { describe, expect, it } from 'vitest';
import { chooseCoding } from './compression.ts';

describe('chooseCoding: the coding of an answer from Accept-Encoding', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['identity', null],
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=1.0, br;q=0.5', 'gzip'],
    ['br;q=0.8, gzip;q=0.8', 'br'],
    ['*', 'br'],
    ['*;q=0', null],
    ['gzip;q=0, *', 'br'],
    ['br;q=0, gzip;q=0, *', null],
    ['GZIP', 'gzip'],
    ['deflate', null],
  ])('%s → %s', (header, coding) => {
    expect(chooseCoding(header)).toBe(coding);
  });
});
