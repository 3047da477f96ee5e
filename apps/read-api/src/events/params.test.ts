import { describe, expect, it } from 'vitest';
import { EventFilterParams, isIanaZone } from './params.ts';

describe('EventFilterParams', () => {
  it('applies the documented defaults', () => {
    const q = EventFilterParams.parse({});
    expect(q).toMatchObject({
      entry: 'any',
      time: 'any',
      audience: 'any',
      event_lang: 'any',
      timezone: 'Asia/Bangkok',
    });
  });
  it('reads lists repeated or comma-separated', () => {
    expect(EventFilterParams.parse({ crowd: ['small', 'large'] }).crowd).toEqual(['small', 'large']);
    expect(EventFilterParams.parse({ crowd: 'small,large' }).crowd).toEqual(['small', 'large']);
    expect(EventFilterParams.parse({ category: 'music' }).category).toEqual(['music']);
  });
  it('refuses unknown enum values, naming the field', () => {
    const r = EventFilterParams.safeParse({ crowd: 'huge' });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.path).toEqual(['crowd']);
  });
  it('parses bbox and near', () => {
    const q = EventFilterParams.parse({ bbox: '98.2,7.7,98.4,7.9', near: '7.8,98.3' });
    expect(q.bbox).toEqual({ minLon: 98.2, minLat: 7.7, maxLon: 98.4, maxLat: 7.9 });
    expect(q.near).toEqual({ lat: 7.8, lon: 98.3 });
    expect(EventFilterParams.safeParse({ bbox: '1,2,3' }).success).toBe(false);
    expect(EventFilterParams.safeParse({ bbox: '1,50,3,10' }).success).toBe(false);
    expect(EventFilterParams.safeParse({ near: '91,0' }).success).toBe(false);
  });
  it('refuses impossible dates', () => {
    expect(EventFilterParams.safeParse({ day: '2026-02-30' }).success).toBe(false);
    expect(EventFilterParams.safeParse({ day: '2026-2-3' }).success).toBe(false);
  });
});

describe('timezone', () => {
  it('is returned in its canonical spelling', () => {
    expect(EventFilterParams.parse({ timezone: 'asia/bangkok' }).timezone).toBe('Asia/Bangkok');
  });
});

describe('isIanaZone', () => {
  it('accepts IANA names and refuses the rest', () => {
    expect(isIanaZone('Asia/Bangkok')).toBe(true);
    expect(isIanaZone('UTC')).toBe(true);
    expect(isIanaZone('America/Argentina/Buenos_Aires')).toBe(true);
    expect(isIanaZone('Mars/Olympus')).toBe(false);
    expect(isIanaZone('+07:00')).toBe(false);
    expect(isIanaZone('')).toBe(false);
  });
});
