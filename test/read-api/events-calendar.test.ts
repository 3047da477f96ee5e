import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock } from '@guest/runtime';
import { readApi } from '@guest/read-api';
import { startTestApp, type TestApp } from '../support/test-app.ts';
import { expectEnvelope, http } from '../support/http.ts';
import { loadCatalog } from '../fixtures/events/load.ts';

// 2026-12-01 is a Tuesday. 10:00Z is 17:00 in Bangkok: the morning market (08:00–11:00) has
// ended, the jazz night (20:00–23:30) has not.
const clock = fixedClock('2026-12-01T10:00:00Z');
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ apps: [readApi], clock });
  await loadCatalog(t, 'events/catalog.ndjson');
});
afterAll(async () => t?.close());

const cal = async (qs = '') => {
  const res = await http(t.url, 'GET', `/v1/events/calendar${qs}`);
  expect(res.status, res.text).toBe(200);
  return res.body as { days: Array<{ date: string; count: number }>; timezone: string; today: string };
};
const counts = (days: Array<{ date: string; count: number }>) => Object.fromEntries(days.map((d) => [d.date, d.count]));

describe('GET /v1/events/calendar', () => {
  it('returns 14 days from today in Asia/Bangkok by default, counting distinct events per venue day', async () => {
    clock.set('2026-12-01T10:00:00Z');
    const body = await cal();
    expect(body.timezone).toBe('Asia/Bangkok');
    expect(body.today).toBe('2026-12-01');
    expect(body.days).toHaveLength(14);
    expect(body.days[0]!.date).toBe('2026-12-01');
    expect(body.days[13]!.date).toBe('2026-12-14');
    expect(counts(body.days)).toEqual({
      '2026-12-01': 1, // jazz night; the market has ended (rule 3)
      '2026-12-02': 3, // midnight cinema, yoga, cooking class; the draft gig is not published
      '2026-12-03': 1,
      '2026-12-04': 2, // yoga, and the puppet show counted once for its two shows
      '2026-12-05': 1,
      '2026-12-06': 0,
      '2026-12-07': 1,
      '2026-12-08': 1, // the market's other day is not cut (rule 3: only today)
      '2026-12-09': 1,
      '2026-12-10': 0,
      '2026-12-11': 1,
      '2026-12-12': 0,
      '2026-12-13': 0,
      '2026-12-14': 1,
    });
  });

  it("rule 3: counts today's event that has not ended yet (09:00 local, market still open)", async () => {
    clock.set('2026-12-01T02:00:00Z');
    const body = await cal('?days=1');
    expect(body.days).toEqual([{ date: '2026-12-01', count: 2 }]);
    clock.set('2026-12-01T10:00:00Z');
  });

  it('rule 2: the `day` filter (and a day range) does not narrow the strip', async () => {
    const plain = await cal();
    expect((await cal('?day=2026-12-04')).days).toEqual(plain.days);
    expect((await cal('?day_from=2026-12-04&day_to=2026-12-05')).days).toEqual(plain.days);
  });

  it('rule 1: counts with the same filters as the feed', async () => {
    expect(counts((await cal('?category=yoga&days=5')).days)).toEqual({
      '2026-12-01': 0,
      '2026-12-02': 1,
      '2026-12-03': 0,
      '2026-12-04': 1,
      '2026-12-05': 0,
    });
    expect(counts((await cal('?time=evening&days=5')).days)).toEqual({
      '2026-12-01': 1,
      '2026-12-02': 1, // 00:30 is evening (17:00–04:59)
      '2026-12-03': 1,
      '2026-12-04': 1, // only the puppet show's 19:00 show
      '2026-12-05': 1,
    });
    expect(counts((await cal('?audience=family&entry=free&days=3')).days)).toEqual({
      '2026-12-01': 0,
      '2026-12-02': 1,
      '2026-12-03': 0,
    });
    expect(counts((await cal('?q=%D0%9A%D0%B0%D1%82%D0%B0&days=3')).days)).toEqual({
      // "Ката": the Russian place name matches the Kata events
      '2026-12-01': 0,
      '2026-12-02': 2,
      '2026-12-03': 0,
    });
    expect(counts((await cal('?bbox=98.28,7.88,98.32,7.91&days=3')).days)).toEqual({
      '2026-12-01': 1,
      '2026-12-02': 1,
      '2026-12-03': 1,
    });
  });

  it('takes `first` and `days` (max 62) and counts 0 past the 180-day horizon', async () => {
    const body = await cal('?first=2026-12-04&days=2');
    expect(body.days).toEqual([
      { date: '2026-12-04', count: 2 },
      { date: '2026-12-05', count: 1 },
    ]);
    expect((await cal('?days=62')).days).toHaveLength(62);
    // 2027-05-28 is the last Friday inside the horizon (today + 179 days); 2027-05-31 is past it.
    const edge = await cal('?first=2027-05-28&days=4&category=yoga');
    expect(edge.days).toEqual([
      { date: '2027-05-28', count: 1 },
      { date: '2027-05-29', count: 0 },
      { date: '2027-05-30', count: 0 },
      { date: '2027-05-31', count: 0 },
    ]);
  });

  it('computes today in the requested timezone', async () => {
    clock.set('2026-12-01T17:01:00Z'); // 00:01 on Dec 2 in Bangkok, still 17:01 on Dec 1 in London
    const london = await cal('?timezone=Europe/London&days=2');
    expect(london.today).toBe('2026-12-01');
    expect(london.timezone).toBe('Europe/London');
    // Dec 1 is today in London: the jazz night ended at 16:30Z, so it no longer counts.
    expect(london.days).toEqual([
      { date: '2026-12-01', count: 0 },
      { date: '2026-12-02', count: 3 },
    ]);
    clock.set('2026-12-01T10:00:00Z');
  });

  describe('just before and just after midnight in Bangkok', () => {
    it('23:59: today is Dec 1 and the jazz night (ended 23:30) is no longer counted', async () => {
      clock.set('2026-12-01T16:59:00Z');
      const body = await cal('?days=2');
      expect(body.today).toBe('2026-12-01');
      expect(body.days).toEqual([
        { date: '2026-12-01', count: 0 },
        { date: '2026-12-02', count: 3 },
      ]);
    });
    it('00:01: today is Dec 2 and the strip starts there, the 00:30 film still counted', async () => {
      clock.set('2026-12-01T17:01:00Z');
      const body = await cal('?days=2');
      expect(body.today).toBe('2026-12-02');
      expect(body.days).toEqual([
        { date: '2026-12-02', count: 3 },
        { date: '2026-12-03', count: 1 },
      ]);
      clock.set('2026-12-01T10:00:00Z');
    });
    it('an event running past midnight counts on its start day, and today after midnight until it ends', async () => {
      clock.set('2026-12-03T16:59:00Z'); // 23:59 Dec 3: the full moon party (22:00–04:00) is on
      expect((await cal('?days=1&category=party')).days).toEqual([{ date: '2026-12-03', count: 1 }]);
      clock.set('2026-12-03T17:01:00Z'); // 00:01 Dec 4: the strip starts on Dec 4, the party is still on
      expect((await cal('?days=2&category=party')).days).toEqual([
        { date: '2026-12-04', count: 1 },
        { date: '2026-12-05', count: 0 },
      ]);
      // Counted once with today's own events (distinct events, not a sum).
      expect((await cal('?days=1')).days).toEqual([{ date: '2026-12-04', count: 3 }]);
      clock.set('2026-12-03T21:01:00Z'); // 04:01 Dec 4: over
      expect((await cal('?days=1&category=party')).days).toEqual([{ date: '2026-12-04', count: 0 }]);
      clock.set('2026-12-01T10:00:00Z');
    });
  });

  it('a strip may end on 9999-12-31, the last day a date is written with four digits', async () => {
    const body = await cal('?first=9999-12-30&days=2');
    expect(body.days.map((d: { date: string }) => d.date)).toEqual(['9999-12-30', '9999-12-31']);
  });

  describe('validation: 400 validation_error naming the field', () => {
    it.each([
      ['?timezone=Mars/Olympus', 'timezone'],
      ['?timezone=%2B07:00', 'timezone'],
      ['?days=0', 'days'],
      ['?days=63', 'days'],
      ['?first=2026-02-30', 'first'],
      // Before today (Dec 1 in Bangkok): the index keeps no past occurrence to count.
      ['?first=2026-11-30', 'first'],
      ['?first=2026-11-30&timezone=Asia/Bangkok&days=7', 'first'],
      // A strip that would run past 9999-12-31 (issue 14 point 4): its days cannot be written.
      ['?first=9999-12-31&days=2', 'first'],
      ['?first=9999-11-15&days=62', 'first'],
      ['?entry=cheap', 'entry'],
      ['?time=night', 'time'],
      ['?audience=kids', 'audience'],
      ['?crowd=small,huge', 'crowd'],
      ['?event_lang=de', 'event_lang'],
      ['?bbox=1,2,3', 'bbox'],
      ['?near=7.8', 'near'],
      ['?radius_m=500', 'radius_m'],
      ['?day_from=2026-12-05&day_to=2026-12-04', 'day_to'],
      ['?day=2026-12-05&day_from=2026-12-04', 'day_from'],
    ])('%s → %s', async (qs, field) => {
      const e = expectEnvelope(await http(t.url, 'GET', `/v1/events/calendar${qs}`), 400, 'validation_error');
      expect(e.details.field).toBe(field);
    });
  });
});
